import fp from 'fastify-plugin';
import { offlineTransferProvider, type PaymentProvider } from '../services/payments.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** How top-up orders are paid (services/payments.ts); the default is an operator-confirmed offline transfer. */
    payments: PaymentProvider;
  }
}

export default fp(async function paymentsPlugin(app) {
  app.decorate('payments', offlineTransferProvider);
});
