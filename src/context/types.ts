// The Context type on its own, so the wiring modules beside it import a type, not each other.
import type { Activity } from '../activity.js';
import type { ApiClient } from '../api/client.js';
import type { ConfigStore } from '../config/store.js';
import type { BaseContext } from '../globals.js';
import type { Ledger } from '../ledger/index.js';
import type { Prompt } from './prompt.js';

/** What every command receives: the BaseContext that lower layers see, plus the wiring. */
export interface Context extends BaseContext {
  /** True when a prompt may be shown (the same as prompt.available). */
  canPrompt: boolean;
  /** The one way to ask the user something (TTY, --no-input, Ctrl-C → 130, "no" → 2). */
  prompt: Prompt;
  /** What the API client waits for: the one it is built with, and spinners and bars read. */
  activity: Activity;
  /** The API client (undici loads on first call). Throws exit-3 errors when no key is configured. */
  api(): Promise<ApiClient>;
  /** Profiles and caches (the config file is read on first call). */
  config(): Promise<ConfigStore>;
  /**
   * The ledger of the account the API client speaks for (data dir), with the profile's spending
   * policy: what every charging path enters its debits into and takes its budget hold from.
   */
  ledger(): Promise<Ledger>;
}
