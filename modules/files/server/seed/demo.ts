import { type PluginContext, runInTenant } from '@balcao/plugin-sdk/server';
import { FileList, FileOption } from '../models';

const LIST_NAME = 'Catálogo e tabela de preços';
const OPTION_NAME = 'Baixar os materiais';

/** A one-page PDF with a line of text: the demo's catalogue, made here so the seed needs no file on disk. */
export function demoPdf(text: string): Buffer {
  const stream = `BT /F1 18 Tf 72 720 Td (${text.replace(/[()\\]/g, '')}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (const [index, body] of objects.entries()) {
    offsets.push(pdf.length);
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
  }
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/**
 * Acme's file list for `npm start` (idempotent): a catalogue PDF, offered by an option of type `file` in the
 * Vendas queue's chatbot menu. Skipped without that queue.
 */
export async function seedFilesDemo(ctx: PluginContext, demo: { companies: Record<string, number> }): Promise<void> {
  const companyId = demo.companies.acme;
  if (!companyId) return;
  await runInTenant({ companyId }, async () => {
    let list = await FileList.query().findOne({ name: LIST_NAME });
    if (!list) {
      list = await FileList.query().insert({ name: LIST_NAME, message: 'Aqui estão o nosso catálogo e a tabela de preços:' });
      const option = await FileOption.query().insert({ fileId: list.id, name: 'Catálogo 2026', orderOption: 0 });
      const key = `files/${list.id}/${option.id}-catalogo-2026.pdf`;
      await ctx.storage.put(companyId, key, demoPdf('Acme - Catalogo 2026'));
      await FileOption.query()
        .findById(option.id)
        .patch({ path: key, originalName: 'catalogo-2026.pdf', mimetype: 'application/pdf', mediaType: 'application' });
    }
    // the menu is the administration's: it adds the option (once) through its service
    await ctx.services.use('chatbotMenus').offerFileList(companyId, {
      queueName: 'Vendas',
      optionName: OPTION_NAME,
      fileListId: list.id,
    });
  });
}
