/** The console routes by the URL's hash (`/#/sessions/<id>`). The server answers any console
 * path with index.html (its SPA fallback), so a link by path (`/sessions/<id>`) opens the
 * console too: this is the hash route it means, or null when the URL already is one. */
export function hashRouteOf(pathname: string, search: string, hash: string): string | null {
  if (hash || pathname === "/" || pathname === "") return null;
  const path = pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
  return `/#${path}${search}`;
}
