import {
  AppError,
  access,
  defineRoutes,
  ErrorResponse,
  Id,
  IdParams,
  NoBody,
  NoQuery,
  PageNumber,
  StrictObject,
  Type,
} from '@balcao/plugin-sdk/server';
import * as files from '../service';

/** Who manages file lists: admins (profile users have no access, docs/product/roles-and-permissions.md). */
const MANAGE = access.permission('files:manage');

const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, ErrorResponse])) as Record<number, typeof ErrorResponse>;

const OptionSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  path: Type.Union([Type.String(), Type.Null()]),
  mediaType: Type.Union([Type.String(), Type.Null()]),
  fileName: Type.Union([Type.String(), Type.Null()]),
  url: Type.Union([Type.String(), Type.Null()]),
});

const FileListSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  message: Type.String(),
  options: Type.Array(OptionSchema),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

/** A list's body (docs/product/automation.md "File lists"): name at least 3, a message, options by name. */
const FileListBody = StrictObject({
  name: Type.String({ maxLength: 100 }),
  message: Type.String({ maxLength: 4096 }),
  options: Type.Optional(
    Type.Array(
      StrictObject({
        id: Type.Optional(Type.Union([Id, Type.Null()])),
        name: Type.String({ minLength: 1, maxLength: 100 }),
        // what the original client sends alongside; the stored file decides both
        path: Type.Optional(Type.Union([Type.String({ maxLength: 300 }), Type.Null()])),
        mediaType: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Null()])),
      }),
      { maxItems: 50 },
    ),
  ),
  // sent by the client on save; the session's user is the one that counts
  userId: Type.Optional(Type.Union([Id, Type.Null()])),
});

const fixtureBody = () => ({ name: 'Walker list', message: 'Os arquivos', options: [{ name: 'Catálogo' }] });

/** File lists (docs/api.md "File lists"). */
export default defineRoutes((app, ctx) => {
  const companyOf = (request: { session: { companyId: number } | null }) => (request.session as { companyId: number }).companyId;

  app.get(
    '/files',
    {
      schema: {
        summary: 'List file lists (search by name, 20 a page)',
        errors: {},
        querystring: StrictObject({
          searchParam: Type.Optional(Type.String({ maxLength: 200 })),
          pageNumber: Type.Optional(PageNumber),
        }),
        response: { 200: Type.Object({ files: Type.Array(FileListSchema), hasMore: Type.Boolean() }) },
      },
      config: { ...MANAGE },
    },
    async (request) => files.listFileLists(ctx, companyOf(request), request.query),
  );

  app.get(
    '/files/:id',
    {
      schema: {
        summary: 'Get a file list with its options',
        errors: { 404: ['ERR_NO_FILE_LIST_FOUND'] },
        params: IdParams,
        querystring: NoQuery,
        response: { 200: FileListSchema, ...errorResponses(404) },
      },
      config: { ...MANAGE, fixtureParams: { id: 'fileList' } },
    },
    async (request) => files.showFileList(ctx, companyOf(request), request.params.id),
  );

  app.post(
    '/files',
    {
      schema: {
        summary: 'Create a file list',
        errors: { 400: ['ERR_FILE_LIST_NAME_SHORT', 'ERR_FILE_LIST_MESSAGE_REQUIRED'] },
        body: FileListBody,
        response: { 200: FileListSchema, ...errorResponses(400) },
      },
      config: { ...MANAGE, fixtureBody },
    },
    async (request) => files.createFileList(ctx, companyOf(request), request.body),
  );

  app.put(
    '/files/:id',
    {
      schema: {
        summary: 'Change a file list and its options',
        errors: {
          400: ['ERR_FILE_LIST_NAME_SHORT', 'ERR_FILE_LIST_MESSAGE_REQUIRED'],
          404: ['ERR_NO_FILE_LIST_FOUND', 'ERR_NO_FILE_OPTION_FOUND'],
        },
        params: IdParams,
        body: FileListBody,
        response: { 200: FileListSchema, ...errorResponses(400, 404) },
      },
      config: { ...MANAGE, fixtureParams: { id: 'fileList' }, fixtureBody },
    },
    async (request) => files.updateFileList(ctx, companyOf(request), request.params.id, request.body),
  );

  app.post(
    '/files/uploadList/:id',
    {
      schema: {
        summary: "Upload an option's file",
        errors: { 404: ['ERR_NO_FILE_LIST_FOUND', 'ERR_NO_FILE_OPTION_FOUND'], 415: ['ERR_FILE_LIST_MEDIA_TYPE'] },
        multipart: Type.Object({
          id: Type.Integer({ description: 'The option the file belongs to' }),
          files: Type.String({ format: 'binary', description: 'Image, audio, video, PDF or Office document (20 MB at most)' }),
          fileId: Type.Optional(Type.Integer()),
          typeArch: Type.Optional(Type.String()),
          mediaType: Type.Optional(Type.String()),
          name: Type.Optional(Type.String()),
        }),
        params: IdParams,
        // multipart: parsed below; a JSON body is refused
        body: NoBody,
        response: { 200: FileListSchema, ...errorResponses(400, 404, 413, 415) },
      },
      config: { ...MANAGE, fixtureParams: { id: 'fileList' } },
    },
    async (request) => {
      // the list first: another company's id is a 404 whatever was sent
      await files.showFileList(ctx, companyOf(request), request.params.id);
      if (!request.isMultipart()) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE');
      let optionId: number | null = null;
      for await (const part of request.parts({ limits: { fileSize: files.FILE_OPTION_MAX_BYTES + 1, files: 1 } })) {
        if (part.type === 'field') {
          if (part.fieldname === 'id') optionId = /^[1-9][0-9]{0,9}$/.test(String(part.value)) ? Number(part.value) : null;
          continue;
        }
        if (part.fieldname !== 'files') {
          part.file.resume();
          continue;
        }
        if (optionId === null) {
          part.file.resume();
          throw new AppError('ERR_VALIDATION', { details: [{ field: 'body.id', message: 'is required before the file' }] });
        }
        const data = await files.readOptionFile(part.file);
        if (part.file.truncated) throw new AppError('ERR_PAYLOAD_TOO_LARGE');
        return files.uploadOptionFile(ctx, companyOf(request), request.params.id, optionId, {
          fileName: part.filename || 'file',
          data,
        });
      }
      throw new AppError('ERR_VALIDATION', { details: [{ field: 'body.files', message: 'is required' }] });
    },
  );

  app.delete(
    '/files/:id',
    {
      schema: {
        summary: 'Delete a file list and its files',
        errors: { 404: ['ERR_NO_FILE_LIST_FOUND'] },
        params: IdParams,
        querystring: NoQuery,
        response: { 200: Type.Object({ message: Type.String() }), ...errorResponses(404) },
      },
      config: { ...MANAGE, fixtureParams: { id: 'fileList' } },
    },
    async (request) => {
      await files.deleteFileList(ctx, companyOf(request), request.params.id);
      return { message: 'File List deleted' };
    },
  );
});
