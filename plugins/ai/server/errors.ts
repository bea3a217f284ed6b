import { defineErrors } from '@balcao/plugin-sdk/server';

/**
 * The AI plugin's own error codes (translated in ui/locales under errors.*). It also answers the
 * connections' ERR_NO_PROMPT_FOUND and the inbox's ERR_NO_QUEUE_FOUND.
 */
export const aiErrors = defineErrors({
  /** A prompt needs the queue (sector) it answers: "Informe o setor". */
  ERR_PROMPT_QUEUE_REQUIRED: 400,
  /** A new prompt needs its provider's API key. */
  ERR_PROMPT_API_KEY_REQUIRED: 400,
  /** A PUT that moves the prompt to another provider address must give the API key again: the stored key goes nowhere new. */
  ERR_PROMPT_API_KEY_REENTRY_REQUIRED: 400,
  /** A PUT that changes the voice region must give the voice key again, for the same reason. */
  ERR_PROMPT_VOICE_KEY_REENTRY_REQUIRED: 400,
  /** The queue already has a prompt: one assistant per queue. */
  ERR_PROMPT_QUEUE_TAKEN: 409,
  /** No audio message of the caller's tickets has that file. */
  ERR_NO_AUDIO_FOUND: 404,
  /** Transcribing needs a prompt of the company (its provider and key). */
  ERR_AI_NOT_CONFIGURED: 409,
  /** The `ai` service's completion: the company spent its monthly token cap. */
  ERR_AI_TOKEN_CAP_REACHED: 409,
  /** The `ai` service's completion: the provider failed (refused, unreachable, slow, a broken answer). */
  ERR_AI_PROVIDER_FAILED: 502,
  /** The provider did not transcribe the audio (refused, unreachable, slow, a broken answer). */
  ERR_TRANSCRIPTION_FAILED: 424,
});
