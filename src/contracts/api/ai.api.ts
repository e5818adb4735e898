import { generateBody, generationDto, generationList } from '../ai.contract.ts';
import { defineRoute } from './define-route.ts';

export const aiApi = {
  generate: defineRoute({
    method: 'POST',
    path: '/api/ai/generate',
    body: generateBody,
    status: 201,
    response: generationDto,
  }),
  generations: defineRoute({
    method: 'GET',
    path: '/api/ai/generations',
    response: generationList,
  }),
};
