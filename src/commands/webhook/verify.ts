// webhook verify: recompute the HMAC of the raw body and compare with the header value.
// Exit 0 valid, 11 invalid (SignatureError), 2 malformed header or missing input (UsageError).
import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { Input } from './verify.command.js';
import { show, showText, type Result } from '../../kit/action.js';
import type { Context } from '../../context/index.js';
import { SignatureError, UsageError } from '../../errors.js';
import { matchSignature, parseSignatureArg } from '../../webhooks/signature.js';

type VerifyFlags = Input['flags'];

export interface VerifyOptions {
  secrets: string[];
  digest: Buffer;
  payloadFile: string | undefined;
}

export function parseVerifyFlags(flags: VerifyFlags, ctx: Context): VerifyOptions {
  const secrets = flags.secret.length > 0 ? flags.secret : ctx.io.env.PROXYCTL_WEBHOOK_SECRET ? [ctx.io.env.PROXYCTL_WEBHOOK_SECRET] : [];
  if (secrets.length === 0) {
    throw new UsageError('no webhook secret given', {
      hint: 'pass --secret S (repeatable) or set PROXYCTL_WEBHOOK_SECRET; proxyctl webhook get --json shows it',
    });
  }
  if (secrets.some((s) => s === '')) throw new UsageError('--secret must not be empty');
  const digest = parseSignatureArg(flags.signature);
  if (flags.payloadFile === undefined && ctx.io.stdinIsTTY) {
    throw new UsageError('no payload: pass --payload-file F or pipe the raw body on stdin');
  }
  return { secrets, digest, payloadFile: flags.payloadFile };
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(chunks);
}

/** The exact bytes: no decoding, no trimming of a trailing newline (it is part of what was signed). */
export async function readPayload(ctx: Context, file: string | undefined): Promise<Buffer> {
  if (file === undefined || file === '-') return readAll(ctx.io.stdin);
  try {
    return await readFile(file);
  } catch (err) {
    throw new UsageError(`cannot read --payload-file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

export default async function handler({ flags, ctx }: Input): Promise<Result> {
  const opts = parseVerifyFlags(flags, ctx);
  const body = await readPayload(ctx, opts.payloadFile);
  const index = matchSignature(body, opts.digest, opts.secrets);
  if (index < 0 && body.length === 0) {
    // Nothing to verify is missing input (exit 2), not a forged delivery (exit 11): deliveries are
    // never empty, so this is a script piping an empty variable or the wrong file.
    throw new UsageError(
      `the payload is empty (${opts.payloadFile === undefined || opts.payloadFile === '-' ? 'nothing on stdin' : opts.payloadFile})`,
      {
        hint: 'pipe the exact raw request body on stdin, or pass --payload-file F',
      },
    );
  }
  if (index < 0) {
    throw new SignatureError(
      `signature does not match the payload (${body.length} bytes) with ${opts.secrets.length === 1 ? 'the secret given' : `any of the ${opts.secrets.length} secrets given`}`,
    );
  }
  // JSON for scripts; otherwise one word, in a table's place and piped alike (the exit code is the answer).
  if (ctx.globals.output === 'json' || ctx.globals.output === 'jsonl') return show({ valid: true, secretIndex: index, bytes: body.length });
  return showText(`valid${opts.secrets.length > 1 ? ` (secret #${index + 1})` : ''}`);
}
