/**
 * Aeron transport between CNs: one embedded media driver per process, frames over publications
 * and subscriptions, flow control. Knows bytes and streams, never batches or plans.
 *
 * <ul>
 *   <li>{@link io.sluice.transport.TransportContext}: every setting with its measured default,
 *       overridable by {@code sluice.transport.*} system properties.</li>
 *   <li>{@link io.sluice.transport.EmbeddedDriver}: the driver (in a fresh directory, deleted on
 *       close) and the Aeron client; makes publishers and subscribers.</li>
 *   <li>{@link io.sluice.transport.FrameHeader}: the 48-byte header (magic, version, kind, flags,
 *       query, exchange, sender CN, bucket, payload length, key id, sequence) in front of every
 *       payload; validates before it is read.</li>
 *   <li>{@link io.sluice.transport.FramePublisher}: sends a frame, retrying back pressure, never
 *       dropping, failing with the channel and stream named when no subscriber connects in time; or
 *       tries once, for a frame that may be skipped (a {@link io.sluice.transport.FrameKind#HEARTBEAT}).
 *       Owns an exclusive publication, or shares a concurrent one with the publishers of other threads
 *       ({@link io.sluice.transport.FramePublisher#sharing}).</li>
 *   <li>{@link io.sluice.transport.FrameSubscriber}: polls frames, reassembling those Aeron
 *       fragmented, and hands them to a {@link io.sluice.transport.FrameHandler} in place; a malformed
 *       frame whose header still names its target goes to the handler too, to fail that target.</li>
 *   <li>{@link io.sluice.transport.FrameSealer}, {@link io.sluice.transport.FrameCipher},
 *       {@link io.sluice.transport.FrameOpener}: with a {@link io.sluice.transport.ClusterSecret},
 *       data frames are sealed with AES-GCM under a key per sender and receiver (HKDF-SHA256 of the
 *       secret, the sender's key id and the receiver's incarnation and address), the sequence number
 *       the nonce; receivers refuse altered, replayed and foreign frames, counted and named.
 *       Control messages keep HMAC-SHA256 tags ({@link io.sluice.transport.MessageAuthenticator}).</li>
 * </ul>
 *
 * <p>The same code runs over {@code aeron:ipc} within a process and {@code aeron:udp?endpoint=host:port}
 * between processes. A frame may be at most an eighth of the term length (16 MiB terms: 2 MiB
 * frames); on UDP the defaults (MTU 65504, 2 MiB receiver window, 4 MiB socket buffers) suit
 * loopback and jumbo frames, and are worth about 12x over Aeron's own; across a 1500-byte network
 * set {@code sluice.transport.mtu.length=1408}.
 *
 * <p>Depends on no other Sluice module; only on Aeron (client and driver) and Agrona.
 */
package io.sluice.transport;
