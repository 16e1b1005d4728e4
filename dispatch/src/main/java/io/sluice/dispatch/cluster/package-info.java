/**
 * The cluster runtime: a {@link io.sluice.dispatch.cluster.Coordinator} that keeps the membership and
 * runs each query on the CNs alive when it arrives, {@link io.sluice.dispatch.cluster.CnServer}s that
 * register with it, heartbeat, and run their part of each query ({@link io.sluice.dispatch.cluster.CnQuery}:
 * decode the shipped plan, compile this CN's fragments, open its receivers, run on START, report), and
 * the client side, {@link io.sluice.dispatch.cluster.ClusterClient} and the library's
 * {@link io.sluice.dispatch.cluster.Session}, which either connects to a coordinator elsewhere or
 * starts the same coordinator and CNs in this JVM over {@code aeron:ipc} (one runtime, two transports).
 *
 * <p>Inside a CN: {@link io.sluice.dispatch.cluster.ClusterExchanges} is the compiler's
 * {@code ExchangeFactory} for one query: each exchange's sending pipeline ends in a
 * {@link io.sluice.dispatch.cluster.DispatchSink} and its receiving pipeline starts with a
 * {@link io.sluice.dispatch.cluster.StreamedSource} that consumes while the senders send;
 * {@link io.sluice.dispatch.cluster.DistributedExplain} renders the distributed plan with
 * {@code io.sluice.dispatch.explain}.
 *
 * <p>Processes, each with its own media driver: one UDP port per process carries its streams
 * ({@link io.sluice.dispatch.cluster.Listener}); control on stream 10, data on 11, result rows to the
 * coordinator on 12. Depends on dispatch, dispatch.control, shuffle, storage and transport.
 */
package io.sluice.dispatch.cluster;
