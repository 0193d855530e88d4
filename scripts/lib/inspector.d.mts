// Types for the tests that import scripts/lib/inspector.mjs.
export declare const INSPECTOR_VERSION: string;
/** The Node 24 binary and the inspector's entry script, each installed when missing. */
export declare function inspector(): Promise<{ node: string; entry: string; version: string }>;
