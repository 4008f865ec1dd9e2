package dev.twstester.internal;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Reflective deep equality and printing of decoded values for {@link NativeCodecPropertyTest}: the same
 * class at every level (so a {@code java.util.HashMap} is not a {@code LinkedHashMap}), arrays element by
 * element, beans field by field, Scala tuples element by element, floating point by bits
 * ({@code NaN} equals {@code NaN}, {@code -0.0} differs from {@code 0.0}), timestamps with their nanos
 * and decimals with their scale.
 */
final class DeepCompare {
    private DeepCompare() {
    }

    /** Null when {@code expected} and {@code actual} are deeply equal, else where and how they first differ. */
    static String diff(Object expected, Object actual) {
        String d = diffFrom(expected, actual);
        return d == null ? null : "value" + d;
    }

    /** Null when equal, else the path below this level (built only on a difference) and the difference. */
    private static String diffFrom(Object e, Object a) {
        if (e == a) {
            return null;   // the same object (a Scala enumeration value, None): its fields may point back to it
        }
        if (e == null || a == null) {
            return e == a ? null : ": expected " + show(e) + " but was " + show(a);
        }
        if (e.getClass() != a.getClass()) {
            return ": expected a " + e.getClass().getName() + " " + show(e) + " but was a "
                    + a.getClass().getName() + " " + show(a);
        }
        Class<?> c = e.getClass();
        if (c.isArray()) {
            int n = Array.getLength(e);
            if (n != Array.getLength(a)) {
                return ": expected length " + n + " but was " + Array.getLength(a) + " (" + show(e) + " vs " + show(a) + ")";
            }
            for (int i = 0; i < n; i++) {
                String d = diffFrom(Array.get(e, i), Array.get(a, i));
                if (d != null) {
                    return "[" + i + "]" + d;
                }
            }
            return null;
        }
        if (e instanceof List<?> le) {
            List<?> la = (List<?>) a;
            if (le.size() != la.size()) {
                return ": expected size " + le.size() + " but was " + la.size() + " (" + show(e) + " vs " + show(a) + ")";
            }
            for (int i = 0; i < le.size(); i++) {
                String d = diffFrom(le.get(i), la.get(i));
                if (d != null) {
                    return ".get(" + i + ")" + d;
                }
            }
            return null;
        }
        if (e instanceof Map<?, ?> me) {
            Map<?, ?> ma = (Map<?, ?>) a;
            if (me.size() != ma.size()) {
                return ": expected size " + me.size() + " but was " + ma.size() + " (" + show(e) + " vs " + show(a) + ")";
            }
            for (Map.Entry<?, ?> entry : me.entrySet()) {
                if (!ma.containsKey(entry.getKey())) {
                    return ": key " + show(entry.getKey()) + " missing in " + show(a);
                }
                String d = diffFrom(entry.getValue(), ma.get(entry.getKey()));
                if (d != null) {
                    return ".get(" + show(entry.getKey()) + ")" + d;
                }
            }
            return null;
        }
        if (e instanceof scala.Product pe && c.getName().startsWith("scala.Tuple")) {
            scala.Product pa = (scala.Product) a;
            for (int i = 0; i < pe.productArity(); i++) {
                String d = diffFrom(pe.productElement(i), pa.productElement(i));
                if (d != null) {
                    return "._" + (i + 1) + d;
                }
            }
            return null;
        }
        if (e instanceof scala.math.BigDecimal de) {
            // equals ignores the scale
            return de.bigDecimal().equals(((scala.math.BigDecimal) a).bigDecimal()) && de.mc().equals(((scala.math.BigDecimal) a).mc())
                    ? null : ": expected " + show(e) + " but was " + show(a);
        }
        if (e instanceof scala.math.BigInt || e instanceof scala.Enumeration.Value) {
            return e.equals(a) ? null : ": expected " + show(e) + " but was " + show(a);
        }
        if (c.getName().startsWith("java.") || c.isEnum() || (c.getSuperclass() != null && c.getSuperclass().isEnum())) {
            // Float/Double equals compare bits (canonical NaN); Timestamp equals compares nanos;
            // BigDecimal equals compares the scale.
            return e.equals(a) ? null : ": expected " + show(e) + " but was " + show(a);
        }
        for (Field f : fields(c)) {
            String d = diffFrom(read(f, e), read(f, a));
            if (d != null) {
                return "." + f.getName() + d;
            }
        }
        return null;
    }

    private static final ClassValue<List<Field>> FIELDS = new ClassValue<>() {
        @Override
        protected List<Field> computeValue(Class<?> c) {
            return List.copyOf(declaredFields(c));
        }
    };

    private static List<Field> fields(Class<?> c) {
        return FIELDS.get(c);
    }

    private static List<Field> declaredFields(Class<?> c) {
        List<Field> out = new ArrayList<>();
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
            for (Field f : k.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers())) {
                    f.setAccessible(true);
                    out.add(f);
                }
            }
        }
        return out;
    }

    private static Object read(Field f, Object o) {
        try {
            return f.get(o);
        } catch (IllegalAccessException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private static final int MAX_SHOWN = 3000;
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    /** A readable, unambiguous rendering (strings escaped, bytes in hex, nanos and float bits shown), cut at a few thousand characters. */
    static String show(Object value) {
        StringBuilder b = new StringBuilder();
        show(value, b);
        return b.length() > MAX_SHOWN ? b.substring(0, MAX_SHOWN) + "...(" + b.length() + " chars)" : b.toString();
    }

    private static void show(Object v, StringBuilder b) {
        if (b.length() > MAX_SHOWN) {
            return;
        }
        if (v == null) {
            b.append("null");
        } else if (v instanceof String s) {
            b.append('"');
            s.chars().forEach(ch -> {
                if (ch >= 0x20 && ch < 0x7f && ch != '"' && ch != '\\') {
                    b.append((char) ch);
                } else {
                    b.append("\\u").append(HEX[(ch >> 12) & 15]).append(HEX[(ch >> 8) & 15]).append(HEX[(ch >> 4) & 15]).append(HEX[ch & 15]);
                }
            });
            b.append('"');
        } else if (v instanceof byte[] bytes) {
            b.append("0x").append(hex(bytes, 200));
        } else if (v instanceof Timestamp t) {
            b.append("Timestamp(").append(t).append(", getTime=").append(t.getTime()).append(", nanos=").append(t.getNanos()).append(')');
        } else if (v instanceof java.sql.Date d) {
            b.append("Date(").append(d).append(", getTime=").append(d.getTime()).append(')');
        } else if (v instanceof Double d) {
            b.append(d).append("d");
            if (d.isNaN()) {
                b.append("(bits 0x").append(Long.toHexString(Double.doubleToRawLongBits(d))).append(')');
            }
        } else if (v instanceof Float f) {
            b.append(f).append("f");
            if (f.isNaN()) {
                b.append("(bits 0x").append(Integer.toHexString(Float.floatToRawIntBits(f))).append(')');
            }
        } else if (v instanceof java.math.BigDecimal d) {
            b.append(d.toPlainString().length() > 80 ? d.toString() : d.toPlainString()).append("(scale ").append(d.scale()).append(')');
        } else if (v instanceof scala.math.BigDecimal d) {
            b.append("scala.BigDecimal(");
            show(d.bigDecimal(), b);
            b.append(", ").append(d.mc()).append(')');
        } else if (v instanceof scala.math.BigInt || v instanceof scala.Enumeration.Value) {
            b.append(v.getClass().getSimpleName()).append('(').append(v).append(')');
        } else if (v instanceof Byte || v instanceof Short) {
            b.append('(').append(v.getClass().getSimpleName().toLowerCase()).append(") ").append(v);
        } else if (v instanceof Long l) {
            b.append(l).append('L');
        } else if (v.getClass().isArray()) {
            b.append(v.getClass().getComponentType().getSimpleName()).append("[]{");
            for (int i = 0; i < Array.getLength(v); i++) {
                b.append(i == 0 ? "" : ", ");
                show(Array.get(v, i), b);
            }
            b.append('}');
        } else if (v instanceof List<?> l) {
            b.append(v.getClass().getSimpleName()).append('[');
            for (int i = 0; i < l.size(); i++) {
                b.append(i == 0 ? "" : ", ");
                show(l.get(i), b);
            }
            b.append(']');
        } else if (v instanceof Map<?, ?> m) {
            b.append(v.getClass().getSimpleName()).append('{');
            Iterator<? extends Map.Entry<?, ?>> it = m.entrySet().iterator();
            while (it.hasNext()) {
                Map.Entry<?, ?> entry = it.next();
                show(entry.getKey(), b);
                b.append('=');
                show(entry.getValue(), b);
                b.append(it.hasNext() ? ", " : "");
            }
            b.append('}');
        } else if (v instanceof scala.Product p && v.getClass().getName().startsWith("scala.Tuple")) {
            b.append('(');
            for (int i = 0; i < p.productArity(); i++) {
                b.append(i == 0 ? "" : ", ");
                show(p.productElement(i), b);
            }
            b.append(')');
        } else if (v.getClass().getName().startsWith("java.") || v instanceof Enum<?>) {
            b.append(v);
        } else {
            b.append(v.getClass().getSimpleName()).append('{');
            List<Field> fs = fields(v.getClass());
            for (int i = 0; i < fs.size(); i++) {
                b.append(i == 0 ? "" : ", ").append(fs.get(i).getName()).append('=');
                show(read(fs.get(i), v), b);
            }
            b.append('}');
        }
    }

    /** Hex of at most {@code max} bytes. */
    static String hex(byte[] bytes, int max) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < Math.min(bytes.length, max); i++) {
            b.append(Character.toLowerCase(HEX[(bytes[i] >> 4) & 15])).append(Character.toLowerCase(HEX[bytes[i] & 15]));
        }
        if (bytes.length > max) {
            b.append("...(").append(bytes.length).append(" bytes)");
        }
        return b.toString();
    }
}
