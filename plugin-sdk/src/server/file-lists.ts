/**
 * The file-lists contract (docs/product/automation.md "File lists"): the files module owns the named sets
 * of files and provides the `fileLists` service; the chatbot (a menu option of type `file`, a queue's
 * `fileListId`) reads a list through it and sends each file with `InboxService.send({ media })`, without
 * knowing the module. Read with `ctx.services.has('fileLists')` / `use('fileLists')`.
 */

/** One file of a list, as stored (`ctx.storage`, under the company). */
export interface FileListEntry {
  /** The option's name: the file's caption. */
  name: string;
  media: { storageKey: string; fileName: string; mimetype: string | null; mediaType: string } | null;
}

/** A file list to send: its message first, then its files in order. */
export interface FileListContent {
  id: number;
  name: string;
  message: string;
  entries: FileListEntry[];
}

export interface FileListsService {
  /** The list `fileListId` of the company, or null when it has none by that id. */
  content(companyId: number, fileListId: number): Promise<FileListContent | null>;
}

declare module './events' {
  interface BalcaoServices {
    fileLists: FileListsService;
  }
}
