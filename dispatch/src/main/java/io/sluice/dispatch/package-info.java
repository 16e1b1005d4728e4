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
 *       the sender wait); remote ones get it encoded once in the block layout, as a DATA frame to the
 *       destination's CN; a batch that is exactly a scanned block's rows goes as the block's stored
 *       bytes instead, copied from its file ({@link io.sluice.dispatch.BatchCodec}). {@code shuffleIdx} is never serialized: the frame's bucket says where the
 *       rows go.</li>
 *   <li>{@link io.sluice.dispatch.ExchangeSource}: one destination's receiving end; finished when every
 *       expected sender has sent end-of-stream exactly once (also senders with no rows). Duplicate or
 *       unexpected end-of-stream, a frame from an unexpected CN, a malformed frame, a sender's ERROR,
 *       or a silent sender past the timeout fail it with a {@link io.sluice.dispatch.DispatchException}
 *       naming the CN and query. A sender busy with, or waiting on, other destinations is not silent:
 *       it sends its receivers heartbeats (a HEARTBEAT frame, or a mark on a local queue).</li>
 *   <li>{@link io.sluice.dispatch.DataPlane}: one CN process's data-plane resources, which every query
 *       shares: its one subscription, its publications to the other CNs (by where they receive), local
 *       queues, {@link io.sluice.dispatch.ExchangeCounters} and {@link io.sluice.dispatch.ExchangeCredits};
 *       {@link io.sluice.dispatch.ComputeNode}: one CN in one cluster view (a query's CNs, by index) over
 *       a data plane, with the view's {@code Cancellation}; {@link io.sluice.dispatch.EmbeddedCluster}: N
 *       CNs in one JVM, on one shared driver over {@code aeron:ipc} or a driver each over
 *       {@code aeron:udp}; {@link io.sluice.dispatch.Channels} says where each CN of a view receives.</li>
 *   <li>Credit: a remote sender sends a destination a DATA frame only against credit
 *       ({@link io.sluice.dispatch.ExchangeCredits}, a window of batches per destination and sending CN),
 *       which the destination grants back with CREDIT frames as it consumes; local queues are bounded. So
 *       what waits for a consumer is bounded whatever the data's size, and a slow consumer slows its
 *       senders across the network.</li>
 *   <li>{@link io.sluice.dispatch.DispatchContext}: queue capacity, credit window, sender timeout, heartbeat
 *       interval, disconnect timeout, route retention, fragment limit, idle strategy ({@code sluice.dispatch.*}).</li>
 * </ul>
 *
 * <p>Streams: one per CN, multiplexed. CN {@code k} receives every frame of every query, exchange and
 * bucket on one subscription (its channel, stream {@code Channels.STREAM_ID_BASE + k}); the frame
 * header's query, exchange, sender and bucket say where it goes, and the CN's demultiplexer routes it
 * to the inbox of that destination's source. Each CN sends to each other CN on one concurrent
 * publication, added on first use and kept until the node closes, which all its sending pipelines,
 * exchanges and queries share: a cluster of n CNs holds at most n x (n - 1) publications. A sender's
 * frames to one CN go through that publication from one thread, so end-of-stream follows its last
 * batch. A sink waits for the first connection to each CN once per node (transport connect timeout).
 *
 * <p>Nobody owns a thread for the demultiplexer: a source with an empty inbox, and a sink waiting (for
 * credit, a full queue, back pressure), polls its CN's stream for all the CN's sources and sinks, under
 * a lock that a thread finding it taken skips. The demultiplexer never waits for a slow destination,
 * so one never holds up the others of its CN; inboxes are bounded by credit instead. Frames for a destination
 * whose source has not opened yet are kept until it opens (at most the route retention); frames for
 * one that finished early (a satisfied LIMIT) or closed are dropped on arrival and counted, since
 * remote senders cannot see it finish (local ones see its queue closed and drop too). A batch whose
 * encoding exceeds the largest frame (term length / 8) is split in halves and routed again.
 *
 * <p>Depends on shuffle ({@code Topology}, {@code Batch}) and transport; storage for the block codec.
 */
package io.sluice.dispatch;
