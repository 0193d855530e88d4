// `proxyctl prices|providers|countries|states`: one line per verb; definitions in <verb>.command.ts.
import countries from './countries.command.js';
import prices from './prices.command.js';
import providers from './providers.command.js';
import states from './states.command.js';

export const catalogue = [prices, providers, countries, states];
