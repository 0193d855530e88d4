// Enumerations of the API spec (§2.1, §2.2), shared by validation, prompts and table layouts.

export const PERIODS = ['3h', '12h', '24h', '7d', '30d'] as const;
export type Period = (typeof PERIODS)[number];

/** Schema values; `inject` is the prose name of `http_noauth` and is accepted as an alias. */
export const PROTOCOLS = ['socks5', 'http', 'http_noauth'] as const;
export type Protocol = (typeof PROTOCOLS)[number];
