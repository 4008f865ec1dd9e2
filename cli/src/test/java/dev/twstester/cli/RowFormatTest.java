package dev.twstester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.twstester.samples.cart.CartAlert;

/** State values of any type as JSON, times in UTC whatever the JVM's zone (surefire: Pacific/Kiritimati). */
class RowFormatTest {

    private static String any(Object v) {
        return RowFormat.print(RowFormat.any(v));
    }

    @Test
    void showsStateValuesByTheirJavaType() {
        Map<Object, Object> byInt = new LinkedHashMap<>();
        byInt.put(2, "b");
        byInt.put(1, "a");

        assertThat(any(42L)).isEqualTo("42");
        assertThat(any("ana")).isEqualTo("\"ana\"");
        assertThat(any(Timestamp.from(Instant.parse("2024-05-01T10:05:00Z")))).isEqualTo("\"2024-05-01T10:05:00Z\"");
        assertThat(any(List.of("boots", "socks"))).isEqualTo("[\"boots\",\"socks\"]");
        assertThat(any(Map.of("shop", 3))).isEqualTo("{\"shop\":3}");
        assertThat(any(byInt)).isEqualTo("[[2,\"b\"],[1,\"a\"]]");
        assertThat(any(Double.NaN)).isEqualTo("\"NaN\"");
        assertThat(any(new CartAlert("ana", 2, Instant.parse("2024-05-01T10:05:00Z"))))
                .isEqualTo("{\"userId\":\"ana\",\"itemCount\":2,\"lastSeen\":\"2024-05-01T10:05:00Z\"}");
    }
}
