import type { FastifyReply } from 'fastify';

/**
 * Answers with JSON text built elsewhere (PostgreSQL's `json_agg` for lists of thousands of rows),
 * as it is: Fastify sends a string with a JSON content type without serialising it again. The
 * route's response schema still documents the answer; the query that builds it follows that shape.
 */
export async function sendJsonText(reply: FastifyReply, text: Promise<string>): Promise<never> {
  const body = await text;
  // An async handler that sends must resolve to the reply itself; typed `never` because the
  // route's typed reply expects the schema's shape, which this text already has.
  return reply.type('application/json; charset=utf-8').send(body) as never;
}
