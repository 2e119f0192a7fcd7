// Closing digests, rewritten by the host's chat model when `capture.digestWriter` is `chatModel` and
// a DigestWriter is bound. Runs in ingestion's staging round (off the chat path), under a hard
// deadline; whatever goes wrong (no model, refusal, error, timeout, empty answer) the filtered
// digest is sent instead. The name never changes, so exactly-once holds as for filtered digests.
import type { Message } from '@graphiti-memory/graphiti-client';
import { inject, injectable, optional } from 'inversify';
import { errorClassOf } from '../errors/graphiti-failure.js';
import { truncateText } from '../mapping/truncation.js';
import { Clock, Logger, TelemetrySink } from '../ports.js';
import { neutraliseEpisodeTags } from '../promotion/episode-format.js';
import { SecretGuard } from '../secrets/secret-guard.js';
import { MemoryConfiguration } from '../settings/memory-configuration.js';
import { digestMaxChars } from './digest-format.js';
import {
  CHAT_MODEL_DIGEST_NOTE,
  DEFAULT_DIGEST_WRITING_OPTIONS,
  DigestWriter,
  DigestWritingOptions,
  type DigestWriteMiss,
  type DigestWriteResult,
} from './digest-writer.js';

/** A closing digest's message and how many turns it holds. */
export interface DigestDraft {
  readonly message: Message;
  readonly turns: number;
}

type Outcome = { readonly text: string; readonly model?: string } | { readonly miss: DigestWriteMiss | 'timeout' | 'empty'; readonly errorClass?: string };

// Control characters a model may emit, except tab and line breaks.
const CONTROL_CHARACTERS = /[^\P{Cc}\t\n\r]/gu;

@injectable()
export class DigestWriting {
  readonly #options: DigestWritingOptions;
  #toldNoWriter = false;

  constructor(
    @inject(MemoryConfiguration) private readonly configuration: MemoryConfiguration,
    @inject(SecretGuard) private readonly secretGuard: SecretGuard,
    @inject(Clock) private readonly clock: Clock,
    @inject(Logger) private readonly logger: Logger,
    @inject(TelemetrySink) private readonly telemetry: TelemetrySink,
    @inject(DigestWriter) @optional() private readonly writer?: DigestWriter,
    @inject(DigestWritingOptions) @optional() options?: Partial<DigestWritingOptions>,
  ) {
    this.#options = { ...DEFAULT_DIGEST_WRITING_OPTIONS, ...options };
  }

  /**
   * The drafts' messages as the configured writer wrote them, each the filtered one when it could
   * not. `signal` (the host shutting down) ends waiting at once. Never throws.
   */
  async write(drafts: readonly DigestDraft[], signal?: AbortSignal): Promise<Message[]> {
    const settings = this.configuration.current();
    if (drafts.length === 0 || settings.capture.digestWriter !== 'chatModel') return drafts.map((draft) => draft.message);
    const writer = this.writer;
    if (writer === undefined) {
      if (!this.#toldNoWriter) this.logger.info('ingestion: capture.digestWriter is chatModel, but this tool has no chat model; digests are the filtered text');
      this.#toldNoWriter = true;
      return drafts.map((draft) => draft.message);
    }
    // A session sent to two groups closes two segments with the same text: the model is asked once.
    const asked = new Map<string, Promise<Outcome>>();
    return Promise.all(
      drafts.map(async (draft) => {
        const maxChars = digestMaxChars(settings.maxMessageChars);
        const key = `${draft.turns}\n${draft.message.content}`;
        let outcome = asked.get(key);
        if (outcome === undefined) {
          outcome = this.#ask(writer, { transcript: draft.message.content, turns: draft.turns, maxChars, model: settings.capture.digestModel }, signal);
          asked.set(key, outcome);
        }
        return this.#apply(draft, await outcome, maxChars);
      }),
    );
  }

  async #ask(writer: DigestWriter, request: Parameters<DigestWriter['write']>[0], signal: AbortSignal | undefined): Promise<Outcome> {
    // A function, not a narrowed read: the signal may abort while the writer works.
    const stopped = (): boolean => signal?.aborted === true;
    if (stopped()) return { miss: 'cancelled' };
    const deadline = new AbortController();
    const stop = (): void => deadline.abort();
    signal?.addEventListener('abort', stop, { once: true });
    try {
      const answer = writer.write(request, deadline.signal).then(
        (result: DigestWriteResult) => ({ result }),
        (error: unknown) => ({ error }),
      );
      const raced = await Promise.race([answer, this.clock.sleep(this.#options.deadlineMs, deadline.signal).then(() => 'timeout' as const)]);
      if (raced === 'timeout') return { miss: stopped() ? 'cancelled' : 'timeout' };
      if ('error' in raced) return { miss: 'failed', errorClass: errorClassOf(raced.error) };
      if (!raced.result.ok) return { miss: raced.result.reason };
      // The model's text is captured text like any other: secrets redacted, product markup quoted.
      const redacted = await this.secretGuard.redact(raced.result.text.replace(CONTROL_CHARACTERS, '').trim());
      const findings = redacted.findings.reduce((sum, finding) => sum + finding.count, 0);
      if (findings > 0) this.telemetry.emit({ type: 'redacted', findings });
      const text = neutraliseEpisodeTags(redacted.text);
      if (text === '') return { miss: 'empty' };
      return { text, ...(raced.result.model === undefined ? {} : { model: raced.result.model }) };
    } catch (error) {
      // The secret guard fails closed: a text it could not scan is not sent.
      return { miss: 'failed', errorClass: errorClassOf(error) };
    } finally {
      // Ends the deadline's sleep, and tells a writer still at work that nobody waits for it.
      signal?.removeEventListener('abort', stop);
      deadline.abort();
    }
  }

  #apply(draft: DigestDraft, outcome: Outcome, maxChars: number): Message {
    if ('miss' in outcome) {
      this.logger.warn('ingestion: the chat model did not write a digest; the filtered digest is sent', {
        reason: outcome.miss,
        turns: draft.turns,
        ...(outcome.errorClass === undefined ? {} : { errorClass: outcome.errorClass }),
      });
      return draft.message;
    }
    const content = truncateText(outcome.text, maxChars);
    this.logger.info('ingestion: a digest was written by the chat model', { turns: draft.turns, chars: content.length, model: outcome.model });
    const description = draft.message.source_description ?? '';
    return { ...draft.message, content, source_description: description === '' ? CHAT_MODEL_DIGEST_NOTE : `${description}, ${CHAT_MODEL_DIGEST_NOTE}` };
  }
}
