import type { Message, Ticket } from '../../../../shared/types';
import { formatDayTime } from '../../logic/format';

/** The texts the PDF needs, already translated. */
export interface PdfLabels {
  title: string;
  generatedAt: string;
  you: string;
  privateNote: string;
  deleted: string;
  media: (type: string) => string;
}

/** One line of the transcript: when, who, what. */
export function transcriptLine(message: Message, contactName: string, labels: PdfLabels): string {
  const author = message.fromMe ? labels.you : (message.contact?.name ?? contactName);
  const parts: string[] = [];
  if (message.isPrivate) parts.push(`[${labels.privateNote}]`);
  if (message.isDeleted) parts.push(`[${labels.deleted}]`);
  if (message.mediaType !== 'chat')
    parts.push(`[${labels.media(message.mediaType)}${message.mediaName ? `: ${message.mediaName}` : ''}]`);
  if (message.body && message.body !== message.mediaName) parts.push(message.body);
  return `[${formatDayTime(message.createdAt)}] ${author}: ${parts.join(' ')}`;
}

/**
 * Writes the loaded conversation as a PDF transcript and downloads it (docs/product/tickets-and-inbox.md#screens-and-routes export as PDF). jsPDF is
 * fetched on first use only.
 */
export async function exportTicketPdf(ticket: Ticket, messages: readonly Message[], labels: PdfLabels): Promise<void> {
  const { jsPDF } = await import('jspdf');
  const doc = new jsPDF({ unit: 'pt', format: 'a4' });
  const margin = 40;
  const width = doc.internal.pageSize.getWidth() - margin * 2;
  const bottom = doc.internal.pageSize.getHeight() - margin;
  let y = margin + 10;

  const write = (text: string, size: number, gap: number) => {
    doc.setFontSize(size);
    for (const line of doc.splitTextToSize(text, width) as string[]) {
      if (y > bottom) {
        doc.addPage();
        y = margin;
      }
      doc.text(line, margin, y);
      y += size + 3;
    }
    y += gap;
  };

  write(`${labels.title} #${ticket.id} - ${ticket.contact.name}`, 14, 4);
  write(`${labels.generatedAt}: ${formatDayTime(new Date())}`, 9, 10);
  for (const message of messages) write(transcriptLine(message, ticket.contact.name, labels), 10, 4);
  doc.save(`ticket-${ticket.id}.pdf`);
}
