/**
 * The MySQL wire protocol on the coordinator ({@code sluice coordinator --mysql HOST:PORT}): a server that
 * speaks handshake v10 with {@code mysql_native_password}, answers COM_QUERY with text result sets and
 * the session statements MySQL clients and JDBC drivers send, and runs every other statement as SQL on
 * the cluster through a {@link io.sluice.perf.mysql.SqlService}. One file per concept: packet framing
 * ({@link io.sluice.perf.mysql.PacketChannel}, {@link io.sluice.perf.mysql.PacketReader},
 * {@link io.sluice.perf.mysql.PacketWriter}), the handshake ({@link io.sluice.perf.mysql.Handshake},
 * {@link io.sluice.perf.mysql.NativePassword}, {@link io.sluice.perf.mysql.MySqlUsers}), command dispatch
 * ({@link io.sluice.perf.mysql.MySqlConnection}), session statements
 * ({@link io.sluice.perf.mysql.SessionStatements}) and result sets ({@link io.sluice.perf.mysql.ResultSetWriter},
 * {@link io.sluice.perf.mysql.MySqlType}).
 *
 * <p>It depends on the engine's result types and on nothing of the CLI: the CLI hands it a
 * {@link io.sluice.perf.mysql.SqlService} that plans and submits statements.
 */
package io.sluice.perf.mysql;
