/**
 * Dispatch: routing batches by {@code shuffleIdx} to their destinations, locally through bounded
 * queues and remotely through transport, and the exchanges that connect the pipelines of a
 * distributed plan across CNs.
 *
 * <ul>
 *   <li>{@link io.sluice.shuffle.operator.DispatchMode}: TO_OWNER, LOCAL_ONLY, ALL_CN (seed 003's three
 *       strategies), BROADCAST, ANY, GATHER.</li>
 *   <li>{@link io.sluice.dispatch.Exchange}: one exchange of a query (topology, mode, schema, senders
 *       per CN); {@link io.sluice.dispatch.Destination}: a bucket as (CN, core).</li>
 *   <li>{@link io.sluice.dispatch.ExchangeSink}: the dispatch at the end of a sending pipeline. Local
 *       destinations get the batch itself through a bounded Agrona queue (no copy; a full queue makes
 *       the sender wait); remote ones get it encoded once in the block layout, as a DATA frame on the
 *       destination bucket's Aeron stream. {@code shuffleIdx} is never serialized: the frame's bucket
 *       says where the rows go.</li>
 *   <li>{@link io.sluice.dispatch.ExchangeSource}: one destination's receiving end; finished when every
 *       expected sender has sent end-of-stream exactly once (also senders with no rows). Duplicate or
 *       unexpected end-of-stream, a sender's ERROR, or a silent sender past the timeout fail it with
 *       a {@link io.sluice.dispatch.DispatchException} naming the CN and query. A sender busy with, or
 *       waiting on, other destinations is not silent: it sends its receivers heartbeats (a HEARTBEAT
 *       frame, or a mark on a local queue).</li>
 *   <li>{@link io.sluice.dispatch.ComputeNode}: one CN's client, channels, local queues and
 *       {@link io.sluice.dispatch.ExchangeCounters}; {@link io.sluice.dispatch.EmbeddedCluster}: N CNs
 *       in one JVM, on one shared driver over {@code aeron:ipc} or a driver each over
 *       {@code aeron:udp}; {@link io.sluice.dispatch.Channels} says where each CN receives.</li>
 *   <li>{@link io.sluice.dispatch.DispatchContext}: queue capacity, sender timeout, heartbeat interval,
 *       fragment limit, idle strategy ({@code sluice.dispatch.*}).</li>
 * </ul>
 *
 * <p>Streams: bucket {@code b} of exchange {@code e} receives on stream
 * {@code STREAM_ID_BASE + e * MAX_BUCKETS + b} of its CN's channel, and each sender has one exclusive
 * publication per remote destination, so per-publication ordering puts end-of-stream after the
 * sender's last batch. A sink waits for each remote destination's first connection (transport
 * connect timeout); a destination that finishes early (a satisfied LIMIT) closes its queue and
 * stream, and senders then drop its batches (counted) instead of waiting, after at most the
 * disconnect timeout. A batch whose encoding exceeds the largest frame (term length / 8) is split in
 * halves and routed again.
 *
 * <p>Depends on shuffle ({@code Topology}, {@code Batch}) and transport; storage for the block codec.
 */
package io.sluice.dispatch;
