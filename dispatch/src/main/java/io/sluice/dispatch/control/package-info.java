/**
 * The cluster's control plane: the messages the coordinator, its CNs and its clients exchange
 * ({@link io.sluice.dispatch.control.ControlMessage}: membership, heartbeats, the query lifecycle
 * PREPARE / START / FINISHED / CANCEL, results and status), their versioned wire form
 * ({@link io.sluice.dispatch.control.ControlCodec}, decoding that checks every field), and their links
 * over Aeron ({@link io.sluice.dispatch.control.ControlPublisher}, {@link io.sluice.dispatch.control.ControlSubscriber}),
 * on streams of their own, apart from the data plane's, so that data back pressure never delays a
 * heartbeat. {@link io.sluice.dispatch.control.QueryStats} is what a query moved, as CNs report it.
 *
 * <p>Depends on shuffle (row types, decisions, the plan codec), storage (the wire reader and writer)
 * and transport; the runtime that speaks it is {@code io.sluice.dispatch.cluster}.
 */
package io.sluice.dispatch.control;
