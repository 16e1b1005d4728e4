/**
 * The data plane: routing batches by {@code shuffleIdx} to their destinations, locally through bounded
 * queues and remotely through transport, and the exchanges that connect the pipelines of a distributed
 * plan across CNs: {@link io.sluice.dispatch.ExchangeSink} at the end of a sending pipeline,
 * {@link io.sluice.dispatch.ExchangeSource} at the start of a receiving one, one multiplexed stream per CN
 * read by its {@link io.sluice.dispatch.Demultiplexer}, credit ({@link io.sluice.dispatch.ExchangeCredits})
 * bounding what waits, settings in {@link io.sluice.dispatch.DispatchContext} ({@code sluice.dispatch.*}).
 * How streams, polling, credit and heartbeats work: {@code dispatch/README.md}.
 *
 * <p>Depends on shuffle ({@code Topology}, {@code Batch}) and transport; storage for the block codec.
 */
package io.sluice.dispatch;
