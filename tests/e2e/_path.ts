/** Path helpers from node:path / node:url (no JSR here). */
import { fileURLToPath } from "node:url";
export { dirname } from "node:path";

/** `file:` URL → path. */
export function fromFileUrl(url: string): string {
  return fileURLToPath(url);
}
