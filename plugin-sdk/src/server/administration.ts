/**
 * What the administration module (queues, chatbot menus, service hours) offers other features, so that
 * none reads or writes its tables: a company's service hours, and a chatbot menu option that hands out a
 * file list. Features that need it list `admin` in `dependsOn`.
 */
import type { ServiceHours } from '../shared/service-hours';

export interface CompanyHoursService {
  /** The company's week of service hours, in the company's scope or by id; the defaults when it saved none. */
  serviceHours(companyId: number): Promise<ServiceHours[]>;
}

/** A top-level option of a queue's chatbot menu that sends a file list. */
export interface FileListOption {
  /** The queue, by name (the demo's queues are named). */
  queueName: string;
  /** The option's label in the menu. */
  optionName: string;
  /** The file list the option sends (of the same company). */
  fileListId: number;
}

export interface ChatbotMenusService {
  /**
   * Adds the option after the queue's last top-level one, unless the queue already has an option of type
   * `file`. Answers whether the queue's menu offers a file list afterwards (false: no queue of that name).
   */
  offerFileList(companyId: number, option: FileListOption): Promise<boolean>;
}

declare module './events' {
  interface BalcaoServices {
    companyHours: CompanyHoursService;
    chatbotMenus: ChatbotMenusService;
  }
}
