// `proxyctl api|openapi`: one line per verb; definitions in <verb>.command.ts.
import openapi from './openapi.command.js';
import request from './request.command.js';

export const raw = [request, openapi];
