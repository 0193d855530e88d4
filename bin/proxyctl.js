#!/usr/bin/env node
// The whole tool lives in the bundle built by `npm run build` (run by `npm ci` through `prepare`).
import { run } from '../dist/cli.js';

run();
