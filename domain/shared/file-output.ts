/**
 * What an operation returns to be sent as a file rather than JSON (a route with `file` set):
 * the bytes, their media type and the name the browser saves them under.
 */
export interface FileOutput {
  content: Buffer;
  contentType: string;
  filename: string;
}
