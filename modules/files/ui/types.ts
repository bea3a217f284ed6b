/** The shapes of the file-list calls (docs/api.md "File lists"). */
export interface FileOption {
  id: number;
  name: string;
  path: string | null;
  mediaType: string | null;
  fileName: string | null;
  url: string | null;
}

export interface FileList {
  id: number;
  name: string;
  message: string;
  options: FileOption[];
  createdAt: string;
  updatedAt: string;
}

export interface FileListBody {
  name: string;
  message: string;
  options: Array<{ id?: number | null; name: string }>;
  userId?: number | null;
}

export interface FileListPage {
  files: FileList[];
  hasMore: boolean;
}
