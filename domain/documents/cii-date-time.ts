import { ciiDate } from './document-rules.js';
import type { XmlWriter } from './xml-writer.js';

/** A CII date element: `<tag><udt:DateTimeString format="102">YYYYMMDD</…></tag>`. */
export function writeCiiDateTime(w: XmlWriter, tag: string, isoDate: string, prefix = 'udt'): void {
  w.open(tag);
  w.raw(`<${prefix}:DateTimeString format="102">${ciiDate(isoDate)}</${prefix}:DateTimeString>`);
  w.close(tag);
}
