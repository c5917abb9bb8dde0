/**
 * The sim server's Files API (`/v1/files`): uploads (multipart, purpose
 * `batch`), the list, a file's object and its content; and the files a
 * batch writes. Private to `lib/providers`.
 *
 * @module
 */
import { badRequest, type BatchReply, notFound, ok } from "./_batch_replies.ts";
import { parseMultipart } from "./_multipart.ts";

/** A stored file. */
export interface SimFile {
  id: string;
  bytes: number;
  created_at: number;
  filename: string;
  purpose: string;
  content: string;
}

/** The files of one sim server. */
export class SimFiles {
  readonly #id: (prefix: string) => string;
  readonly #now: () => number;
  readonly #files = new Map<string, SimFile>();

  /**
   * @param id Makes the next id with a prefix (shared with the batches).
   * @param now The clock in ms.
   */
  constructor(id: (prefix: string) => string, now: () => number) {
    this.#id = id;
    this.#now = now;
  }

  /** The file of an id, if it was stored. */
  get(id: string): SimFile | undefined {
    return this.#files.get(id);
  }

  /** Stores a file (an upload or a batch's output) under a new id. */
  store(filename: string, purpose: string, content: string): SimFile {
    const file: SimFile = {
      id: this.#id("file"),
      bytes: new TextEncoder().encode(content).length,
      created_at: Math.floor(this.#now() / 1000),
      filename,
      purpose,
      content,
    };
    this.#files.set(file.id, file);
    return file;
  }

  /** Answers `<method> /v1/files<rest>`. */
  route(method: string, rest: string, body: string): BatchReply {
    if (method === "POST" && rest === "") return this.#upload(body);
    if (method === "GET" && rest === "") {
      return ok({
        object: "list",
        data: [...this.#files.values()].map(fileObject),
        has_more: false,
      });
    }
    const [id = "", sub] = rest.slice(1).split("/");
    const file = this.#files.get(decodeURIComponent(id));
    if (file === undefined) {
      return notFound(`Cannot find file "${id}": no such file was uploaded`);
    }
    if (method === "GET" && sub === undefined) return ok(fileObject(file));
    if (method === "GET" && sub === "content") {
      return { status: 200, body: file.content, outcome: "batch" };
    }
    return notFound(`Cannot route ${method} /v1/files${rest}`);
  }

  #upload(body: string): BatchReply {
    const fields = parseMultipart(body);
    const file = fields?.get("file");
    if (fields === null || file === undefined) {
      return badRequest(
        "Cannot upload: expected a multipart/form-data body with a 'file' field",
      );
    }
    const purpose = fields.get("purpose")?.value ?? "";
    if (purpose !== "batch") {
      return badRequest(
        `Cannot upload: this server accepts purpose "batch" only, got "${purpose}"`,
      );
    }
    return ok(
      fileObject(
        this.store(file.filename ?? "upload.jsonl", purpose, file.value),
      ),
    );
  }
}

/** The file object as `GET /v1/files/{id}` returns it. */
function fileObject(file: SimFile): Record<string, unknown> {
  return {
    id: file.id,
    object: "file",
    bytes: file.bytes,
    created_at: file.created_at,
    filename: file.filename,
    purpose: file.purpose,
    status: "processed",
  };
}
