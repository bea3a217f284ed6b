import type { WebchatMessage, WebchatMessagesPage, WebchatSessionResponse, WebchatVisitor } from '../shared/webchat';
import { Conversation, newClientId, type PendingMessage } from './conversation';
import { fileProblem, fileSize } from './files';
import type { ChatWindow, StreamEvent, WidgetHost } from './host';
import { callWebchat, WebchatCallError } from './http';
import { errorText, WINDOW_TEXTS, type WindowTexts } from './i18n';
import { type PrechatField, type PrechatValues, prechatBody, prechatModes, validatePrechat } from './prechat';
import { el, messageSignature, type RenderContext, renderMessage, renderPending } from './render';
import { WINDOW_CSS } from './styles';
import { uploadFile } from './upload';

const PAGE_SIZE = 30;
/** A `typing: true` is repeated at most this often while the visitor keeps typing… */
const TYPING_REPEAT_MS = 3_000;
/** …and `typing: false` follows this long after the last key. */
const TYPING_IDLE_MS = 4_000;
/** An agent's typing fades out if no `typing: false` arrives (a closed tab never says it stopped). */
const AGENT_TYPING_TIMEOUT_MS = 8_000;

const ATTACH_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M16.5 6v11.5a4 4 0 0 1-8 0V5a2.5 2.5 0 0 1 5 0v10.5a1 1 0 0 1-2 0V6H10v9.5a2.5 2.5 0 0 0 5 0V5a4 4 0 0 0-8 0v12.5a5.5 5.5 0 0 0 11 0V6h-1.5z"/></svg>';
const SEND_ICON = '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M2 21l21-9L2 3v7l15 2-15 2z"/></svg>';

type View = 'loading' | 'error' | 'prechat' | 'conversation';

/** Refusals that pass by themselves: worth a "try again". */
const PASSING_TROUBLES = ['NETWORK', 'ERR_WEBCHAT_RATE_LIMITED'];

/** Mounts the chat window into the loader's panel (the module the loader imports on first open). */
export function mountChatWindow(host: WidgetHost): ChatWindow {
  return new ChatWindowView(host);
}

/**
 * The chat window: session (resume, pre-chat form, identity), the conversation (history with paging,
 * live messages and changes, delivery states), the composer (text, files with progress, typing), read acks.
 */
class ChatWindowView implements ChatWindow {
  private readonly conversation = new Conversation();
  private readonly section: HTMLElement;
  private readonly title: HTMLHeadingElement;
  private readonly presence: HTMLParagraphElement;
  private readonly closeButton: HTMLButtonElement;
  private readonly body: HTMLDivElement;
  private readonly announcer: HTMLDivElement;
  private view: View = 'loading';
  private visitor: WebchatVisitor | null = null;
  private started = false;
  /** Bumped when the visitor changes: answers for the previous one are dropped. */
  private generation = 0;
  // conversation view parts (present in that view only)
  private log: HTMLDivElement | null = null;
  private notice: HTMLDivElement | null = null;
  private typingLine: HTMLDivElement | null = null;
  private textarea: HTMLTextAreaElement | null = null;
  private sendButton: HTMLButtonElement | null = null;
  private attachButton: HTMLButtonElement | null = null;
  private readonly bubbles = new Map<string, { signature: string; element: HTMLElement }>();
  private errorCode: string | null = null;
  private prechatMissing: string[] = [];
  private prechatValues: PrechatValues = {};
  private prechatServerError: string | null = null;
  private lastReadSent: string | null = null;
  private typingSentAt = 0;
  private typingIdleTimer: ReturnType<typeof setTimeout> | null = null;
  private agentTypingTimer: ReturnType<typeof setTimeout> | null = null;
  private loadingOlder = false;

  constructor(private readonly host: WidgetHost) {
    const style = document.createElement('style');
    style.textContent = WINDOW_CSS;
    host.root.prepend(style);
    this.section = el('section', 'window');
    this.section.setAttribute('role', host.inline ? 'region' : 'dialog');
    this.section.setAttribute('aria-labelledby', 'bc-title');
    this.section.setAttribute('part', 'window');
    const header = el('header');
    const heading = el('div', 'heading');
    this.title = el('h2');
    this.title.id = 'bc-title';
    this.presence = el('p', 'presence');
    this.presence.style.margin = '0';
    heading.append(this.title, this.presence);
    this.closeButton = el('button', 'close', '×');
    this.closeButton.type = 'button';
    this.closeButton.hidden = host.inline;
    this.closeButton.addEventListener('click', () => host.close());
    header.append(heading, this.closeButton);
    this.body = el('div', 'body');
    this.announcer = el('div', 'sr');
    this.announcer.setAttribute('aria-live', 'polite');
    this.section.append(header, this.body, this.announcer);
    this.section.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        host.close();
      }
    });
    this.acceptDrops();
    host.panel.replaceChildren(this.section);
    host.onStream((event) => this.onStream(event));
    // messages that arrived while the tab was hidden are read when the visitor comes back to it
    document.addEventListener('visibilitychange', () => this.markRead());
    this.paintFrame();
    this.paintView();
  }

  private get texts(): WindowTexts {
    return WINDOW_TEXTS[this.host.locale];
  }

  // ---- ChatWindow --------------------------------------------------------------------------------

  shown(): void {
    if (!this.started) {
      this.started = true;
      void this.start();
    }
    this.focusFirst();
    this.markRead();
  }

  hidden(): void {
    this.stopTyping();
  }

  localeChanged(): void {
    this.readPrechatValues();
    this.paintFrame();
    this.bubbles.clear();
    this.paintView();
  }

  userChanged(): void {
    this.generation += 1;
    this.conversation.clear();
    this.bubbles.clear();
    this.visitor = null;
    this.lastReadSent = null;
    this.prechatValues = {};
    this.prechatMissing = [];
    this.started = false;
    this.setView('loading');
    if (this.host.isOpen) this.shown();
  }

  // ---- session -----------------------------------------------------------------------------------

  private async start(): Promise<void> {
    const host = this.host;
    if (host.configError || !host.config) {
      // the loader has told the page already (`error`)
      this.errorCode = host.configError ?? 'NETWORK';
      this.setView('error');
      return;
    }
    const generation = this.generation;
    this.setView('loading');
    if (host.sessionToken) {
      try {
        await this.openSession({ sessionToken: host.sessionToken }, generation);
        return;
      } catch (error) {
        if (codeOf(error) !== 'ERR_WEBCHAT_SESSION_INVALID') return this.sessionRefused(error, generation, true);
        host.forgetSession();
      }
    }
    if (!host.identity && prechatModes(host.config.prechat).length > 0) return this.setView('prechat');
    await this.createSession({}, generation);
  }

  private async createSession(values: PrechatValues, generation: number): Promise<void> {
    try {
      await this.openSession(prechatBody(values), generation);
    } catch (error) {
      this.sessionRefused(error, generation, false);
    }
  }

  /**
   * A session call refused: missing or malformed pre-chat fields go back to the form with the reason; a
   * passing trouble (network, rate limit) too when making a session, or the error view with a retry
   * button when resuming; anything else (identity, origin, unknown key) is the error view.
   */
  private sessionRefused(error: unknown, generation: number, resuming: boolean): void {
    if (generation !== this.generation) return;
    const code = codeOf(error);
    if (code === 'ERR_WEBCHAT_PRECHAT_REQUIRED') {
      this.prechatMissing = missingFields(error as WebchatCallError);
      this.prechatServerError = null;
      this.setView('prechat');
      return;
    }
    const formProblems = ['ERR_WEBCHAT_INVALID_EMAIL', 'ERR_WEBCHAT_INVALID_PHONE', 'ERR_VALIDATION'];
    if (formProblems.includes(code) || (!resuming && PASSING_TROUBLES.includes(code))) {
      this.prechatServerError = this.describe(error);
      this.setView('prechat');
      return;
    }
    this.fail(code);
  }

  /** Makes or resumes the session, then shows the conversation with its newest page. */
  private async openSession(fields: Record<string, string>, generation: number): Promise<void> {
    const host = this.host;
    const answer = await callWebchat<WebchatSessionResponse>(host.api, host.widgetKey, '/sessions', {
      json: { ...fields, ...(host.identity ? { identity: host.identity } : {}), locale: host.locale },
    });
    if (generation !== this.generation) return;
    this.visitor = answer.visitor;
    host.saveSession(answer.sessionToken);
    this.setView('conversation');
    await this.loadNewest();
  }

  private fail(code: string): void {
    this.errorCode = code;
    this.setView('error');
    this.host.emit('error', { code });
  }

  // ---- conversation ------------------------------------------------------------------------------

  private async loadNewest(): Promise<void> {
    const page = await this.fetchPage(null);
    if (!page) return;
    // a resync after a long drop whose newest page doesn't reach what is on screen would leave a hole that
    // "load older" (which continues from the oldest message) never fills: start from that page instead
    const first = page.messages[0];
    if (first && page.hasMore && !this.conversation.has(first.id)) this.conversation.clearMessages();
    for (const message of page.messages) this.conversation.upsert(message);
    // paging state comes from a page that starts the list (the first load, or the one that replaced it)
    if (this.conversation.oldestId() === first?.id || page.messages.length === 0) this.conversation.hasMore = page.hasMore;
    this.paintMessages(true);
    this.markRead();
  }

  private async loadOlder(): Promise<void> {
    const before = this.conversation.oldestId();
    if (!before || this.loadingOlder) return;
    this.loadingOlder = true;
    const log = this.log;
    const heightBefore = log?.scrollHeight ?? 0;
    try {
      const page = await this.fetchPage(before);
      if (!page) return;
      for (const message of page.messages) this.conversation.upsert(message);
      this.conversation.hasMore = page.hasMore;
      this.paintMessages(false);
      // keep the message the visitor was reading where it was
      if (log) log.scrollTop += log.scrollHeight - heightBefore;
    } finally {
      this.loadingOlder = false;
    }
  }

  private async fetchPage(before: string | null): Promise<WebchatMessagesPage | null> {
    // the newest page is the server's default page (30): no query string needed
    const query = before ? `?before=${encodeURIComponent(before)}&limit=${PAGE_SIZE}` : '';
    try {
      return await callWebchat<WebchatMessagesPage>(this.host.api, this.host.widgetKey, `/messages${query}`, {
        sessionToken: this.host.sessionToken,
      });
    } catch (error) {
      this.handleCallError(error);
      return null;
    }
  }

  private onStream(event: StreamEvent): void {
    if (this.view !== 'conversation') return;
    switch (event.name) {
      case 'message': {
        const isNew = this.conversation.upsert(event.data);
        this.setAgentTyping(null);
        this.paintMessages(this.nearBottom());
        if (isNew && event.data.author !== 'visitor') this.announce(event.data);
        this.markRead();
        break;
      }
      case 'update':
        // a change to a message not on screen (an older page not loaded) waits for that page
        if (!this.conversation.has(event.data.id)) break;
        this.conversation.upsert(event.data);
        this.paintMessages(false);
        break;
      case 'typing':
        this.setAgentTyping(event.data.typing ? event.data.name : null);
        break;
      case 'status':
        this.paintFrame();
        this.paintNotice(null);
        break;
      case 'resync':
        void this.loadNewest();
        break;
    }
  }

  private announce(message: WebchatMessage): void {
    const who = message.authorName ?? this.host.config?.name ?? '';
    this.announcer.textContent = `${this.texts.newMessages}: ${who} — ${message.isDeleted ? this.texts.deleted : message.body || message.fileName || ''}`;
  }

  /** `read` for the newest company message, once the visitor can see it (window open, tab visible). */
  private markRead(): void {
    const host = this.host;
    if (!host.isOpen || document.visibilityState === 'hidden' || this.view !== 'conversation' || !host.sessionToken) return;
    const newest = this.conversation.newestCompanyId();
    if (!newest || newest === this.lastReadSent) return;
    this.lastReadSent = newest;
    callWebchat(host.api, host.widgetKey, '/read', { sessionToken: host.sessionToken, json: { upToId: newest } }).catch(() => {
      this.lastReadSent = null;
    });
  }

  // ---- sending -----------------------------------------------------------------------------------

  private submitText(): void {
    const textarea = this.textarea;
    if (!textarea) return;
    const body = textarea.value.trim();
    if (!body) return;
    textarea.value = '';
    this.fitComposer();
    this.stopTyping();
    this.send({
      clientId: newClientId(),
      body,
      file: null,
      state: 'sending',
      progress: null,
      error: null,
      createdAt: new Date().toISOString(),
    });
  }

  private sendFiles(files: FileList | File[]): void {
    const config = this.host.config;
    if (!config || this.view !== 'conversation') return;
    for (const file of [...files]) {
      const problem = fileProblem(file, config.maxFileSize, config.acceptedTypes);
      if (problem) {
        this.paintNotice(
          problem === 'too-large' ? this.texts.fileTooLarge(fileSize(config.maxFileSize)) : this.texts.fileTypeRefused,
        );
        continue;
      }
      this.send({
        clientId: newClientId(),
        body: '',
        file,
        state: 'sending',
        progress: 0,
        error: null,
        createdAt: new Date().toISOString(),
      });
    }
  }

  private async send(pending: PendingMessage): Promise<void> {
    const host = this.host;
    const generation = this.generation;
    this.conversation.addPending(pending);
    this.paintMessages(true);
    try {
      const token = host.sessionToken ?? '';
      const stored = pending.file
        ? await uploadFile({
            api: host.api,
            widgetKey: host.widgetKey,
            sessionToken: token,
            clientId: pending.clientId,
            body: pending.body,
            file: pending.file,
            onProgress: (progress) => {
              this.conversation.updatePending(pending.clientId, { progress });
              this.paintMessages(false);
            },
          })
        : await callWebchat<WebchatMessage>(host.api, host.widgetKey, '/messages', {
            sessionToken: token,
            json: { clientId: pending.clientId, body: pending.body },
          });
      if (generation !== this.generation) return;
      this.conversation.upsert(stored);
      this.paintMessages(true);
      host.emit('message', stored);
    } catch (error) {
      if (generation !== this.generation) return;
      this.conversation.updatePending(pending.clientId, { state: 'failed', progress: null, error: this.describe(error) });
      this.paintMessages(false);
      this.handleCallError(error);
    }
  }

  private retry(clientId: string): void {
    const pending = this.conversation.updatePending(clientId, { state: 'sending', error: null, progress: null });
    if (!pending) return;
    void this.send({ ...pending, progress: pending.file ? 0 : null });
  }

  /** A refusal that changes the widget's state: offline, a session gone. */
  private handleCallError(error: unknown): void {
    const code = codeOf(error);
    if (code === 'ERR_WEBCHAT_OFFLINE') {
      this.host.setOnline(false);
      this.paintFrame();
    }
    if (code === 'ERR_WEBCHAT_SESSION_INVALID') {
      this.host.forgetSession();
      this.userChanged();
      return;
    }
    this.paintNotice(this.describe(error));
  }

  private describe(error: unknown): string {
    const code = codeOf(error);
    const retryAfter = error instanceof WebchatCallError ? Number(error.body.retryAfter) : Number.NaN;
    if (code === 'ERR_WEBCHAT_RATE_LIMITED' && retryAfter > 0) return this.texts.rateLimited(Math.ceil(retryAfter));
    if (code === 'ERR_WEBCHAT_TOO_LARGE' && this.host.config)
      return this.texts.fileTooLarge(fileSize(this.host.config.maxFileSize));
    return errorText(this.texts, code);
  }

  // ---- typing ------------------------------------------------------------------------------------

  private typed(): void {
    this.fitComposer();
    if (!this.textarea?.value.trim()) {
      this.stopTyping();
      return;
    }
    const now = Date.now();
    if (now - this.typingSentAt > TYPING_REPEAT_MS) {
      this.typingSentAt = now;
      this.sendTyping(true);
    }
    if (this.typingIdleTimer) clearTimeout(this.typingIdleTimer);
    this.typingIdleTimer = setTimeout(() => this.stopTyping(), TYPING_IDLE_MS);
  }

  private stopTyping(): void {
    if (this.typingIdleTimer) clearTimeout(this.typingIdleTimer);
    this.typingIdleTimer = null;
    if (this.typingSentAt === 0) return;
    this.typingSentAt = 0;
    this.sendTyping(false);
  }

  private sendTyping(typing: boolean): void {
    const host = this.host;
    if (!host.sessionToken) return;
    // best effort: a lost typing signal only costs a moment of "typing…"
    callWebchat(host.api, host.widgetKey, '/typing', { sessionToken: host.sessionToken, json: { typing } }).catch(() => {});
  }

  private setAgentTyping(name: string | null | false): void {
    if (this.agentTypingTimer) clearTimeout(this.agentTypingTimer);
    this.agentTypingTimer = null;
    if (!this.typingLine) return;
    if (name === null || name === false) {
      this.typingLine.textContent = '';
      return;
    }
    this.typingLine.textContent = this.texts.typing(name);
    this.agentTypingTimer = setTimeout(() => this.setAgentTyping(null), AGENT_TYPING_TIMEOUT_MS);
  }

  // ---- drawing -----------------------------------------------------------------------------------

  private setView(view: View): void {
    this.view = view;
    this.bubbles.clear();
    this.paintView();
    if (view !== 'loading') this.focusFirst();
  }

  private paintFrame(): void {
    const texts = this.texts;
    const config = this.host.config;
    this.title.textContent = config?.title || config?.name || '';
    const online = config?.online !== false;
    this.presence.textContent = config ? (online ? texts.online : texts.offline) : '';
    this.closeButton.setAttribute('aria-label', texts.close);
    this.section.setAttribute('lang', this.host.locale);
    if (this.textarea) this.textarea.disabled = !online;
    if (this.sendButton) this.sendButton.disabled = !online;
    if (this.attachButton) this.attachButton.disabled = !online;
  }

  private paintView(): void {
    this.log = this.notice = this.typingLine = this.textarea = this.sendButton = this.attachButton = null;
    const texts = this.texts;
    if (this.view === 'loading') this.body.replaceChildren(el('div', 'status-view', texts.loading));
    else if (this.view === 'error') {
      const code = this.errorCode ?? 'NETWORK';
      const message = el('div', 'status-view error', errorText(texts, code));
      message.setAttribute('role', 'alert');
      // a passing trouble can be tried again: the configuration first when it couldn't be read
      if (PASSING_TROUBLES.includes(code)) {
        const retry = el('button', 'again', texts.retry);
        retry.type = 'button';
        retry.addEventListener('click', async () => {
          if (!this.host.config) await this.host.reloadConfig();
          this.paintFrame();
          this.started = false;
          this.shown();
        });
        message.append(el('br'), retry);
      }
      this.body.replaceChildren(message);
    } else if (this.view === 'prechat') this.body.replaceChildren(this.prechatForm());
    else this.paintConversation();
  }

  private prechatForm(): HTMLFormElement {
    const texts = this.texts;
    const config = this.host.config;
    const modes = prechatModes(config?.prechat ?? { name: 'off', email: 'off', phone: 'off' }, this.prechatMissing);
    const form = el('form', 'prechat');
    form.noValidate = true;
    form.append(el('p', '', texts.prechatIntro));
    if (this.prechatServerError) {
      const error = el('div', 'notice', this.prechatServerError);
      error.setAttribute('role', 'alert');
      form.append(error);
    }
    const inputs = new Map<PrechatField, HTMLInputElement>();
    for (const [field, mode] of modes) {
      const label = el('label');
      const input = el('input');
      input.name = field;
      input.type = field === 'email' ? 'email' : field === 'phone' ? 'tel' : 'text';
      input.autocomplete = field === 'email' ? 'email' : field === 'phone' ? 'tel' : 'name';
      input.required = mode === 'required';
      input.value = this.prechatValues[field] ?? this.visitor?.[field] ?? '';
      const caption = mode === 'required' ? `${texts[field]} *` : `${texts[field]} (${texts.optional})`;
      label.append(el('span', '', caption), input);
      const problem = el('span', 'field-error');
      problem.id = `bc-error-${field}`;
      problem.setAttribute('aria-live', 'polite');
      input.setAttribute('aria-describedby', problem.id);
      label.append(problem);
      form.append(label);
      inputs.set(field, input);
    }
    const start = el('button', 'start', texts.startChat);
    start.type = 'submit';
    form.append(start);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.readPrechatValues();
      const problems = validatePrechat(modes, this.prechatValues);
      let first: HTMLInputElement | null = null;
      for (const [field, input] of inputs) {
        const problem = problems[field];
        input.setAttribute('aria-invalid', String(Boolean(problem)));
        const message = form.querySelector(`#bc-error-${field}`) as HTMLElement;
        message.textContent = problem
          ? { required: texts.fieldRequired, email: texts.emailInvalid, phone: texts.phoneInvalid }[problem]
          : '';
        if (problem && !first) first = input;
      }
      if (first) return first.focus();
      start.disabled = true;
      void this.createSession(this.prechatValues, this.generation).finally(() => {
        start.disabled = false;
      });
    });
    return form;
  }

  private readPrechatValues(): void {
    if (this.view !== 'prechat') return;
    for (const input of this.body.querySelectorAll<HTMLInputElement>('form.prechat input')) {
      this.prechatValues[input.name as PrechatField] = input.value;
    }
  }

  private paintConversation(): void {
    const texts = this.texts;
    this.notice = el('div', 'notice');
    this.notice.setAttribute('role', 'alert');
    this.log = el('div', 'log');
    this.log.setAttribute('role', 'log');
    this.log.setAttribute('tabindex', '0');
    this.log.addEventListener('click', (event) => {
      const retry = (event.target as HTMLElement).closest<HTMLElement>('[data-retry]');
      if (retry?.dataset.retry) this.retry(retry.dataset.retry);
    });
    this.typingLine = el('div', 'typing');
    const composer = el('form', 'composer');
    const fileInput = el('input');
    fileInput.type = 'file';
    fileInput.hidden = true;
    fileInput.multiple = true;
    fileInput.accept = (this.host.config?.acceptedTypes ?? []).join(',');
    fileInput.addEventListener('change', () => {
      if (fileInput.files) this.sendFiles(fileInput.files);
      fileInput.value = '';
    });
    this.attachButton = iconButton('attach', texts.attach, ATTACH_ICON);
    this.attachButton.addEventListener('click', () => fileInput.click());
    this.textarea = el('textarea');
    this.textarea.rows = 1;
    this.textarea.setAttribute('aria-label', texts.composer);
    this.textarea.placeholder = texts.composer;
    this.textarea.maxLength = 4096;
    this.textarea.addEventListener('input', () => this.typed());
    this.textarea.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        this.submitText();
      }
    });
    this.textarea.addEventListener('paste', (event) => {
      const files = event.clipboardData?.files;
      if (files && files.length > 0) {
        event.preventDefault();
        this.sendFiles(files);
      }
    });
    this.sendButton = iconButton('send', texts.send, SEND_ICON);
    this.sendButton.type = 'submit';
    composer.addEventListener('submit', (event) => {
      event.preventDefault();
      this.submitText();
    });
    composer.append(fileInput, this.attachButton, this.textarea, this.sendButton);
    this.body.replaceChildren(this.notice, this.log, this.typingLine, composer);
    this.paintNotice(null);
    this.paintFrame();
    this.paintMessages(true);
  }

  /** The offline notice when the connection is off, else the last error (null clears it). */
  private paintNotice(message: string | null): void {
    if (!this.notice) return;
    const text = this.host.config?.online === false ? this.texts.offlineNotice : message;
    this.notice.hidden = !text;
    this.notice.textContent = text ?? '';
  }

  /** Draws the list: only bubbles whose message changed are built again (a playing video keeps playing). */
  private paintMessages(scrollToEnd: boolean): void {
    const log = this.log;
    if (!log) return;
    const context: RenderContext = { texts: this.texts, locale: this.host.locale, companyName: this.host.config?.name ?? '' };
    const wanted: HTMLElement[] = [];
    const keys = new Set<string>();
    // every element is kept while its content stays the same: moving or rebuilding a node would stop a
    // playing video and lose a focused button
    const keep = (key: string, signature: string, build: () => HTMLElement) => {
      keys.add(key);
      let known = this.bubbles.get(key);
      if (!known || known.signature !== signature) {
        known = { signature, element: build() };
        this.bubbles.set(key, known);
      }
      wanted.push(known.element);
    };
    if (this.conversation.hasMore) {
      keep('older', this.texts.loadOlder, () => {
        const older = el('button', 'older', this.texts.loadOlder);
        older.type = 'button';
        older.addEventListener('click', () => void this.loadOlder());
        return older;
      });
    }
    const welcome = this.host.config?.welcomeMessage;
    if (welcome && !this.conversation.hasMore) {
      keep('welcome', welcome, () => {
        const bubble = el('div', 'msg theirs welcome', welcome);
        bubble.dataset.kind = 'welcome';
        return bubble;
      });
    }
    for (const item of this.conversation.items()) {
      keep(item.key, messageSignature(item), () =>
        item.message ? renderMessage(item.message, context) : renderPending(item.pending, context),
      );
    }
    for (const key of this.bubbles.keys()) if (!keys.has(key)) this.bubbles.delete(key);
    // move nodes only where the order differs
    wanted.forEach((element, index) => {
      if (log.children[index] !== element) log.insertBefore(element, log.children[index] ?? null);
    });
    while (log.children.length > wanted.length) log.lastElementChild?.remove();
    if (scrollToEnd) log.scrollTop = log.scrollHeight;
  }

  private nearBottom(): boolean {
    const log = this.log;
    return !log || log.scrollHeight - log.scrollTop - log.clientHeight < 80;
  }

  private fitComposer(): void {
    const textarea = this.textarea;
    if (!textarea) return;
    textarea.style.height = 'auto';
    textarea.style.height = `${Math.min(textarea.scrollHeight, 120)}px`;
  }

  private focusFirst(): void {
    if (!this.host.isOpen) return;
    const target =
      this.view === 'conversation'
        ? this.textarea
        : this.view === 'prechat'
          ? this.body.querySelector<HTMLInputElement>('input')
          : this.closeButton.hidden
            ? null
            : this.closeButton;
    (target ?? this.section).focus();
  }

  private acceptDrops(): void {
    this.section.addEventListener('dragover', (event) => {
      if (this.view !== 'conversation' || !event.dataTransfer?.types.includes('Files')) return;
      event.preventDefault();
      this.section.classList.add('dropping');
    });
    this.section.addEventListener('dragleave', () => this.section.classList.remove('dropping'));
    this.section.addEventListener('drop', (event) => {
      this.section.classList.remove('dropping');
      const files = event.dataTransfer?.files;
      if (this.view !== 'conversation' || !files || files.length === 0) return;
      event.preventDefault();
      this.sendFiles(files);
    });
  }
}

function iconButton(className: string, label: string, icon: string): HTMLButtonElement {
  const button = el('button', `icon ${className}`);
  button.type = 'button';
  button.setAttribute('aria-label', label);
  button.title = label;
  button.innerHTML = icon;
  return button;
}

/** The pre-chat fields the server said were missing (`details: [{ field: 'body.email' }]`); all of them if it didn't say. */
export function missingFields(error: WebchatCallError): string[] {
  const details = Array.isArray(error.body.details) ? error.body.details : [];
  const fields = details.map((detail) => String(detail.field ?? '').replace(/^body\./, '')).filter(Boolean);
  return fields.length > 0 ? fields : ['name', 'email', 'phone'];
}

function codeOf(error: unknown): string {
  return error instanceof WebchatCallError ? error.code : 'NETWORK';
}
