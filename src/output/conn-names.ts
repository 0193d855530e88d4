// The names --conn-format accepts, apart from the formatter (src/output/conn.ts) so that TAB
// completion can offer them without loading it. A new preset is added here, in conn.ts's PRESETS,
// and in src/units/conn-lines.ts (which reads the lines back).
export const CONN_PRESETS = ['colon', 'at', 'url'] as const;
export const CONN_PLACEHOLDERS = ['ip', 'port', 'user', 'pass', 'protocol', 'ref', 'pool', 'country', 'expiresAt'] as const;
