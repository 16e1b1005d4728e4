package io.sluice.perf.cli;

import io.sluice.dispatch.cluster.Session;
import io.sluice.dispatch.control.ControlMessage.MemberStatus;
import io.sluice.dispatch.control.ControlMessage.Status;
import io.sluice.perf.text.Plural;
import io.sluice.transport.Endpoint;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code sluice cluster status}: every CN as the coordinator sees it. */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = {"Lists every CN of a cluster as its coordinator sees it: name, endpoint, cores, state (alive,"
            + " suspect after about 1.5 s without a heartbeat, dead after 4 to 9 s or once its host says its process is gone, when it leaves), time since its"
            + " last heartbeat, queries running, peak resident memory, messages it refused (unsigned, replayed,"
            + " garbage), packets its driver sent again and its process id; where the coordinator's own process"
            + " started CNs (sluice cluster up), whether each was started with it or apart (by hand: stopping the"
            + " coordinator's process does not stop it); then the coordinator's queries running and waiting and the"
            + " messages it refused."},
        footer = {"", "Example:", "  sluice cluster status --coordinator 127.0.0.1:7400 --json"})
public final class ClusterStatusCommand extends CliCommand {
    @Option(names = "--coordinator", required = true, paramLabel = "HOST:PORT", description = "The cluster's coordinator.")
    String coordinator;

    @Option(names = "--json", description = "Print {\"coordinator\", \"running\", \"queued\", \"rejected_messages\","
            + " \"members\": [{\"name\", \"endpoint\", \"cores\", \"state\", \"since_heartbeat_ms\", \"queries\","
            + " \"rss_bytes\", \"rejected_messages\", \"retransmits\", \"pid\", \"started_with_coordinator\"}]} instead of a"
            + " table.")
    boolean json;

    @Mixin
    SecretOption secret;

    @Override
    int execute(final PrintWriter out, final PrintWriter err) {
        final Endpoint endpoint = Endpoint.parse(coordinator, false);
        final Status status;
        try (Session session = Session.connect(endpoint, Session.defaultTransport(), secret.context())) {
            status = session.clusterStatus();
        }
        final List<MemberStatus> members = status.members();
        if (json) {
            final JsonWriter w = new JsonWriter().beginObject().name("coordinator").value(endpoint.toString())
                    .name("running").value(status.runningQueries()).name("queued").value(status.queuedQueries())
                    .name("rejected_messages").value(status.rejectedMessages()).name("members").beginArray();
            for (final MemberStatus m : members) {
                w.beginObject().name("name").value(m.name()).name("endpoint").value(m.endpoint())
                        .name("cores").value(m.cores()).name("state").value(m.state().cliName())
                        .name("since_heartbeat_ms").value(m.sinceHeardMillis()).name("queries").value(m.activeQueries())
                        .name("rss_bytes").value(m.rssBytes()).name("rejected_messages").value(m.rejectedMessages())
                        .name("retransmits").value(m.retransmits()).name("pid").value(m.pid())
                        .name("started_with_coordinator").value(m.launched()).endObject();
            }
            out.println(w.endArray().endObject());
            return 0;
        }
        // Which CNs the coordinator's own process started only means something where it started some (cluster up).
        boolean launcher = false;
        for (final MemberStatus m : members) {
            launcher |= m.launched();
        }
        out.printf(Locale.ROOT, "%-20s %-24s %5s %-8s %10s %7s %9s %8s %8s %8s%s%n", "name", "endpoint", "cores", "state",
                "heartbeat", "running", "rss", "rejected", "resent", "pid", launcher ? "  started" : "");
        final List<String> apart = new ArrayList<>();
        for (final MemberStatus m : members) {
            out.printf(Locale.ROOT, "%-20s %-24s %5d %-8s %7d ms %7d %9s %8d %8d %8d%s%n", m.name(), m.endpoint(),
                    m.cores(), m.state().cliName(), m.sinceHeardMillis(), m.activeQueries(),
                    m.rssBytes() < 0 ? "-" : Sizes.mib(m.rssBytes()), m.rejectedMessages(), m.retransmits(), m.pid(),
                    !launcher ? "" : m.launched() ? "  with the coordinator" : "  apart");
            if (launcher && !m.launched()) {
                apart.add(m.name() + " (pid " + m.pid() + ")");
            }
        }
        out.println(Plural.of(members.size(), "CN") + " in the cluster of " + endpoint + "; "
                + Plural.of(status.runningQueries(), "query") + " running, " + status.queuedQueries() + " waiting; "
                + Plural.of(status.rejectedMessages(), "message") + " refused by the coordinator");
        if (!apart.isEmpty()) {
            out.println(String.join(", ", apart) + (apart.size() == 1 ? " was" : " were") + " started apart from the"
                    + " coordinator's process (sluice cluster up): stopping it does not stop "
                    + (apart.size() == 1 ? "that CN" : "those CNs") + "; stop "
                    + (apart.size() == 1 ? "it" : "each") + " where it runs (CTRL-C, or kill PID on its host)");
        }
        return 0;
    }
}
