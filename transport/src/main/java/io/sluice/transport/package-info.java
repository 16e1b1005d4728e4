/**
 * Aeron transport between CNs: the embedded media driver, publications and subscriptions,
 * framing and flow control. Knows bytes and streams, never batches or plans.
 *
 * <p>Depends on no other Sluice module.
 */
package io.sluice.transport;
