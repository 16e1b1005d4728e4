package io.sluice.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * Endpoints parse as users write them, refuse what they cannot mean with the form to write, and
 * publications to another host get datagrams that fit an Ethernet frame unless an MTU is set.
 */
class EndpointTest {
    @Test
    void hostAndPortParseAndFormTheirChannel() {
        final Endpoint e = Endpoint.parse(" 10.0.0.7:7400 ", false);
        assertThat(e.host()).isEqualTo("10.0.0.7");
        assertThat(e.port()).isEqualTo(7400);
        assertThat(e.channel()).isEqualTo("aeron:udp?endpoint=10.0.0.7:7400");
        assertThat(Endpoint.parse("127.0.0.1", true)).isEqualTo(new Endpoint("127.0.0.1", 0));
        assertThat(Endpoint.parse("[::1]:9", false).host()).isEqualTo("[::1]");
        assertThat(e.withPort(0).toString()).isEqualTo("10.0.0.7:0");
    }

    @Test
    void malformedEndpointsAreRefusedShowingTheForm() {
        assertThatThrownBy(() -> Endpoint.parse("localhost", false)).hasMessageContaining("is not HOST:PORT");
        assertThatThrownBy(() -> Endpoint.parse("h:x", false)).hasMessageContaining("no port number");
        assertThatThrownBy(() -> Endpoint.parse("h:70000", false)).hasMessageContaining("port 70000");
        assertThatThrownBy(() -> Endpoint.parse(":7400", false)).hasMessageContaining("HOST:PORT");
        assertThatThrownBy(() -> new Endpoint("no-such-host.invalid", 1).address())
                .hasMessageContaining("unknown host 'no-such-host.invalid'");
    }

    @Test
    void loopbackKeepsTheLargeMtuAndOtherHostsGetTheNetworkOneUnlessOneIsSet() {
        final TransportContext defaults = new TransportContext();
        assertThat(Endpoint.publicationChannel("aeron:udp?endpoint=127.0.0.1:7400", defaults))
                .isEqualTo("aeron:udp?endpoint=127.0.0.1:7400|mtu=" + TransportContext.MTU_LENGTH_DEFAULT);
        assertThat(Endpoint.publicationChannel("aeron:udp?endpoint=10.1.2.3:7400", defaults))
                .isEqualTo("aeron:udp?endpoint=10.1.2.3:7400|mtu=" + TransportContext.MTU_LENGTH_NETWORK);
        final TransportContext jumbo = new TransportContext().mtuLength(8960);
        assertThat(Endpoint.publicationChannel("aeron:udp?endpoint=10.1.2.3:7400", jumbo)).endsWith("|mtu=8960");
        assertThat(Endpoint.publicationChannel("aeron:ipc", defaults)).isEqualTo("aeron:ipc");
    }

    @Test
    void theLocalAddressTowardLoopbackIsLoopback() {
        assertThat(Endpoint.localAddressToward(new Endpoint("127.0.0.1", 7400))).isEqualTo("127.0.0.1");
    }
}
