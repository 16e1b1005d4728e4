package io.sluice.perf.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class JsonWriterTest {
    @Test
    void escapesQuotesBackslashesAndControlCharacters() {
        final StringBuilder sb = new StringBuilder();
        JsonWriter.quote("a\"b\\c\nd\te\u0001f\u001fg\u2028h/\u00e9", sb);
        assertThat(sb.toString()).isEqualTo("\"a\\\"b\\\\c\\nd\\te\\u0001f\\u001fg\\u2028h/\u00e9\"");
    }

    @Test
    void loneSurrogatesAreEscapedPairsKept() {
        final StringBuilder sb = new StringBuilder();
        JsonWriter.quote("x\uD800y\uD83D\uDE00", sb);
        assertThat(sb.toString()).isEqualTo("\"x\\ud800y\uD83D\uDE00\"");
    }

    @Test
    void nestedDocument() {
        final String doc = new JsonWriter().beginObject()
                .name("a").value(1)
                .name("b").beginArray().value("x").nullValue().value(true).number("-0.50").endArray()
                .name("c").beginObject().endObject()
                .name("d").beginArray().endArray()
                .endObject().toString();
        assertThat(doc).isEqualTo("{\n  \"a\": 1,\n  \"b\": [\n    \"x\",\n    null,\n    true,\n    -0.50\n  ],\n"
                + "  \"c\": {},\n  \"d\": []\n}\n");
        final Map<?, ?> parsed = (Map<?, ?>) MiniJson.parse(doc);
        assertThat(parsed.get("b")).isEqualTo(java.util.Arrays.asList("x", null, true, new MiniJson.Num("-0.50")));
        assertThat(parsed.get("d")).isEqualTo(List.of());
    }

    @Test
    void misuseIsRejected() {
        assertThatThrownBy(() -> new JsonWriter().beginObject().value(1)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> new JsonWriter().beginArray().name("x")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> new JsonWriter().beginArray().endObject()).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> new JsonWriter().beginObject().toString()).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> new JsonWriter().value(1).value(2)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> new JsonWriter().number("1.")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new JsonWriter().number("NaN")).isInstanceOf(IllegalArgumentException.class);
    }

    /** Any string survives writing and parsing with an independent parser. */
    @Property
    void anyStringRoundTrips(@ForAll final String s) {
        final String doc = new JsonWriter().beginObject().name(s).value(s).endObject().toString();
        @SuppressWarnings("unchecked")
        final Map<String, Object> parsed = (Map<String, Object>) MiniJson.parse(doc);
        assertThat(parsed.keySet()).containsExactly(s);
        assertThat(parsed.get(s)).isEqualTo(s);
    }
}
