/** One Set-Cookie header, parsed: name, value and attributes (lower-case names). */
export interface SetCookie {
  name: string;
  value: string;
  attributes: Record<string, string | true>;
}

export function setCookies(res: Response): SetCookie[] {
  return res.headers.getSetCookie().map((header) => {
    const [pair, ...attrs] = header.split(';').map((part) => part.trim());
    const eq = pair.indexOf('=');
    const attributes: Record<string, string | true> = {};
    for (const attr of attrs) {
      const i = attr.indexOf('=');
      if (i === -1) attributes[attr.toLowerCase()] = true;
      else attributes[attr.slice(0, i).toLowerCase()] = attr.slice(i + 1);
    }
    return { name: pair.slice(0, eq), value: pair.slice(eq + 1), attributes };
  });
}

export const cookieNamed = (res: Response, name: string): SetCookie | undefined =>
  setCookies(res).find((cookie) => cookie.name === name);
