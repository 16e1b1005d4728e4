/**
 * Aeron transport between CNs: one embedded media driver per process
 * ({@link io.sluice.transport.EmbeddedDriver}), frames ({@link io.sluice.transport.FrameHeader}) sent by
 * {@link io.sluice.transport.FramePublisher} and received by {@link io.sluice.transport.FrameSubscriber},
 * sealed with AES-GCM under keys derived from the cluster secret ({@link io.sluice.transport.FrameSealer},
 * {@link io.sluice.transport.FrameOpener}), configured by {@link io.sluice.transport.TransportContext}
 * ({@code sluice.transport.*}). Knows bytes and streams, never batches or plans. What each class owns
 * and the frame layout: {@code transport/README.md}.
 *
 * <p>Depends on no other Sluice module; only on Aeron (client and driver) and Agrona.
 */
package io.sluice.transport;
