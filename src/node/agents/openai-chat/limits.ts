/**
 * The adapter's ID and connection limits, apart from session.ts so that the
 * command line can name them in its options without loading the adapter
 * (its HTTP client, prompt and cache) for a command that runs another agent.
 */

/** The builtin agent ID of the adapter. */
export const OPENAI_CHAT_AGENT_ID = 'openai-chat';
/** The default of --max-connections. */
export const DEFAULT_MAX_CONNECTIONS = 8;
export const MAX_CONNECTIONS_LIMIT = 1024;
