/**
 * Dispatch: routing batches by {@code shuffleIdx} to their destinations (locally through bounded
 * queues, remotely through transport), exchanges, and the cluster runtime that runs a
 * distributed plan on a coordinator and N CNs.
 *
 * <p>Depends on shuffle and transport.
 */
package io.sluice.dispatch;
