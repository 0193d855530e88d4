// The events of spec §6.4 are written down twice: src/webhooks (what `webhook listen --on` accepts
// and TAB offers) and the sandbox (what it can fire and what its openapi.json documents). The
// sandbox imports nothing of the CLI, so this test is what keeps the two lists one.
import { describe, expect, it } from 'vitest';
import { EVENT_NAMES } from '../../src/webhooks/events.js';
import { EVENTS } from '../../src/sandbox/routes/control.js';
import { eventData } from '../../src/sandbox/openapi-schemas.js';

const sorted = (xs: Iterable<string>) => [...xs].sort();

describe('the webhook events', () => {
  it('src/webhooks lists exactly the events the sandbox fires and documents', () => {
    expect(sorted(EVENT_NAMES)).toEqual(sorted(EVENTS));
    expect(sorted(EVENT_NAMES)).toEqual(sorted(Object.keys(eventData)));
  });
});
