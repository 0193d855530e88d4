import { describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthMissingError,
  CliError,
  ExitCode,
  InterruptedError,
  NetworkError,
  PartialFailureError,
  PolicyError,
  SignatureError,
  UsageError,
  errorObject,
  exitCodeFor,
} from '../src/errors.js';

const api = (status: number, code = 'x') => new ApiError({ status, code, message: 'm', requestId: 'req_1' });

describe('exit code table (CLI contract)', () => {
  it.each([
    ['usage error', new UsageError('bad'), 2],
    ['missing key', new AuthMissingError(), 3],
    ['401', api(401, 'invalid_api_key'), 3],
    ['403', api(403, 'reseller_disabled'), 4],
    ['404', api(404, 'unit_not_found'), 5],
    ['402', api(402, 'insufficient_balance'), 6],
    ['429', api(429, 'rate_limited'), 7],
    ['409', api(409, 'idempotency_in_flight'), 8],
    ['500', api(500, 'internal'), 9],
    ['503', api(503, 'upstream_unreachable'), 9],
    ['400 from the server', api(400, 'protocol_invalid'), 2],
    ['network failure', new NetworkError('refused'), 9],
    ['partial failure', new PartialFailureError('1 of 2 failed', []), 10],
    ['bad signature', new SignatureError(), 11],
    ['refused by a budget or policy', new PolicyError('over max-spend-per-day', { code: 'budget_exceeded' }), 12],
    ['interrupted', new InterruptedError(), 130],
    ['an unclassified CliError', new CliError('odd'), 1],
    ['a plain bug', new TypeError('x is undefined'), 1],
    ['a thrown string', 'boom', 1],
  ])('%s → %i', (_name, err, code) => {
    expect(exitCodeFor(err)).toBe(code);
  });

  it('names every contract code once', () => {
    expect(Object.values(ExitCode).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 130]);
  });
});

describe('error objects for JSON mode', () => {
  it('keeps the API error fields verbatim and adds status', () => {
    const e = new ApiError({
      status: 402,
      code: 'insufficient_balance',
      type: 'insufficient_balance_error',
      message: 'Balance too low',
      requestId: 'req_9',
      required: 12.5,
      raw: {
        type: 'insufficient_balance_error',
        code: 'insufficient_balance',
        message: 'Balance too low',
        requestId: 'req_9',
        required: 12.5,
        documentationUrl: 'https://docs',
      },
    });
    expect(errorObject(e)).toEqual({
      error: {
        type: 'insufficient_balance_error',
        code: 'insufficient_balance',
        message: 'Balance too low',
        requestId: 'req_9',
        required: 12.5,
        documentationUrl: 'https://docs',
        status: 402,
      },
    });
  });

  it('gives local errors a code, message and hint', () => {
    expect(errorObject(new AuthMissingError())).toEqual({
      error: { code: 'api_key_missing', message: 'no API key configured', hint: 'run proxyctl login or set PROXYCTL_API_KEY' },
    });
  });
});
