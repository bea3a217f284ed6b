import { api, type SessionState, streamSocketEvent } from '@balcao/plugin-sdk/ui';
import type { FileList, FileListBody, FileListPage } from './types';

/** What `company-{id}-file` carries: the saved list, or the id of the deleted one. */
interface FileEvent {
  action: 'create' | 'update' | 'delete';
  files?: FileList;
  fileId?: number;
}

const companyOf = (state: unknown) => (state as { session?: SessionState }).session?.user?.companyId;

/** The file-list calls (docs/api.md "File lists") on the shell's api; the list follows the realtime channel. */
export const filesApi = api.enhanceEndpoints({ addTagTypes: ['FileList'] }).injectEndpoints({
  endpoints: (build) => ({
    fileLists: build.query<FileListPage, { searchParam: string; pageNumber: number }>({
      query: ({ searchParam, pageNumber }) => ({ url: '/files', params: { searchParam: searchParam || undefined, pageNumber } }),
      serializeQueryArgs: ({ queryArgs }) => `fileLists(${queryArgs.searchParam})`,
      merge: (current, incoming, { arg }) => {
        if (arg.pageNumber <= 1) return incoming;
        const known = new Set(current.files.map((row) => row.id));
        return { hasMore: incoming.hasMore, files: [...current.files, ...incoming.files.filter((row) => !known.has(row.id))] };
      },
      forceRefetch: ({ currentArg, previousArg }) => currentArg?.pageNumber !== previousArg?.pageNumber,
      providesTags: [{ type: 'FileList', id: 'LIST' }],
      onCacheEntryAdded: (args, lifecycle) => {
        if (companyOf(lifecycle.getState()) === undefined) return Promise.resolve();
        return streamSocketEvent<FileListPage, FileEvent>(lifecycle, { channel: 'file' }, (draft, event) => {
          const index = draft.files.findIndex((row) => row.id === (event.files?.id ?? event.fileId));
          if (event.action === 'delete') {
            if (index >= 0) draft.files.splice(index, 1);
            return;
          }
          if (!event.files) return;
          if (index >= 0) draft.files[index] = event.files;
          else if (event.action === 'create') {
            const needle = args.searchParam.trim().toLowerCase();
            if (!needle || event.files.name.toLowerCase().includes(needle)) draft.files.unshift(event.files);
          }
        });
      },
    }),
    createFileList: build.mutation<FileList, FileListBody>({
      query: (body) => ({ url: '/files', method: 'POST', body }),
      invalidatesTags: [{ type: 'FileList', id: 'LIST' }],
    }),
    updateFileList: build.mutation<FileList, { id: number; body: FileListBody }>({
      query: ({ id, body }) => ({ url: `/files/${id}`, method: 'PUT', body }),
      invalidatesTags: [{ type: 'FileList', id: 'LIST' }],
    }),
    /** One option's file: the server reads the option `id` before `files`, so it is appended first. */
    uploadFileOption: build.mutation<FileList, { listId: number; optionId: number; file: File }>({
      query: ({ listId, optionId, file }) => {
        const body = new FormData();
        body.append('id', String(optionId));
        body.append('typeArch', 'fileList');
        body.append('files', file);
        return { url: `/files/uploadList/${listId}`, method: 'POST', body };
      },
      invalidatesTags: [{ type: 'FileList', id: 'LIST' }],
    }),
    deleteFileList: build.mutation<{ message: string }, number>({
      query: (id) => ({ url: `/files/${id}`, method: 'DELETE' }),
      invalidatesTags: [{ type: 'FileList', id: 'LIST' }],
    }),
  }),
});

export const {
  useFileListsQuery,
  useCreateFileListMutation,
  useUpdateFileListMutation,
  useUploadFileOptionMutation,
  useDeleteFileListMutation,
} = filesApi;
