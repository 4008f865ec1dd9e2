package dev.twstester.internal;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Date;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;

/**
 * The Java beans of {@link NativeCodecPropertyTest}, public so that Spark's bean encoder (and the code it
 * generates) can reach them. Equality is checked reflectively by {@link DeepCompare}, so they have no
 * {@code equals}; {@link DeepCompare#show} prints them.
 */
public final class PropBeans {
    private PropBeans() {
    }

    /** An enum with a non-ASCII constant, to check that its name is written as UTF-8. */
    public enum Color {
        RED, GREEN, BLUE, \u00C9T\u00C9
    }

    /** A leaf of the nested shapes: a primitive, a string and a boxed double. */
    public static final class LeafBean {
        private int x;
        private String y;
        private Double z;

        public int getX() {
            return x;
        }

        public void setX(int x) {
            this.x = x;
        }

        public String getY() {
            return y;
        }

        public void setY(String y) {
            this.y = y;
        }

        public Double getZ() {
            return z;
        }

        public void setZ(Double z) {
            this.z = z;
        }

        @Override
        public String toString() {
            return DeepCompare.show(this);
        }
    }

    /** A bean inside beans, lists and maps; has a bean field of its own and a list (orderable: no map). */
    public static final class InnerBean {
        private String name;
        private Integer count;
        private double score;
        private Instant at;
        private LeafBean leaf;
        private List<String> tags;

        public String getName() {
            return name;
        }

        public void setName(String name) {
            this.name = name;
        }

        public Integer getCount() {
            return count;
        }

        public void setCount(Integer count) {
            this.count = count;
        }

        public double getScore() {
            return score;
        }

        public void setScore(double score) {
            this.score = score;
        }

        public Instant getAt() {
            return at;
        }

        public void setAt(Instant at) {
            this.at = at;
        }

        public LeafBean getLeaf() {
            return leaf;
        }

        public void setLeaf(LeafBean leaf) {
            this.leaf = leaf;
        }

        public List<String> getTags() {
            return tags;
        }

        public void setTags(List<String> tags) {
            this.tags = tags;
        }

        @Override
        public String toString() {
            return DeepCompare.show(this);
        }
    }

    /** A Java enum, which Spark takes only inside a bean (written as its name()). */
    public static final class EnumBean {
        private Color color;
        private String label;
        private int rank;

        public Color getColor() {
            return color;
        }

        public void setColor(Color color) {
            this.color = color;
        }

        public String getLabel() {
            return label;
        }

        public void setLabel(String label) {
            this.label = label;
        }

        public int getRank() {
            return rank;
        }

        public void setRank(int rank) {
            this.rank = rank;
        }

        @Override
        public String toString() {
            return DeepCompare.show(this);
        }
    }

    /** BigInteger, which Spark takes only inside a bean (DecimalType(38,0)). */
    public static final class BigIntegerBean {
        private BigInteger value;
        private long id;

        public BigInteger getValue() {
            return value;
        }

        public void setValue(BigInteger value) {
            this.value = value;
        }

        public long getId() {
            return id;
        }

        public void setId(long id) {
            this.id = id;
        }

        @Override
        public String toString() {
            return DeepCompare.show(this);
        }
    }

    /** A small key bean: its fields tie often so the order looks at later fields. */
    public static final class KeyBean {
        private String name;
        private long id;
        private Integer n;
        private boolean flag;

        public String getName() {
            return name;
        }

        public void setName(String name) {
            this.name = name;
        }

        public long getId() {
            return id;
        }

        public void setId(long id) {
            this.id = id;
        }

        public Integer getN() {
            return n;
        }

        public void setN(Integer n) {
            this.n = n;
        }

        public boolean getFlag() {
            return flag;
        }

        public void setFlag(boolean flag) {
            this.flag = flag;
        }

        @Override
        public String toString() {
            return DeepCompare.show(this);
        }
    }

    /** A flat bean with one field of every atomic type Spark's bean encoder takes. */
    public static final class FlatBean {
        private boolean primitiveBoolean;
        private Boolean boxedBoolean;
        private byte primitiveByte;
        private Byte boxedByte;
        private short primitiveShort;
        private Short boxedShort;
        private int primitiveInt;
        private Integer boxedInt;
        private long primitiveLong;
        private Long boxedLong;
        private float primitiveFloat;
        private Float boxedFloat;
        private double primitiveDouble;
        private Double boxedDouble;
        private String text;
        private byte[] binary;
        private Timestamp timestamp;
        private Instant instant;
        private Date date;
        private LocalDate localDate;
        private LocalDateTime localDateTime;
        private BigDecimal decimal;
        private BigInteger bigInteger;
        private Color color;

        public boolean getPrimitiveBoolean() {
            return primitiveBoolean;
        }

        public void setPrimitiveBoolean(boolean primitiveBoolean) {
            this.primitiveBoolean = primitiveBoolean;
        }

        public Boolean getBoxedBoolean() {
            return boxedBoolean;
        }

        public void setBoxedBoolean(Boolean boxedBoolean) {
            this.boxedBoolean = boxedBoolean;
        }

        public byte getPrimitiveByte() {
            return primitiveByte;
        }

        public void setPrimitiveByte(byte primitiveByte) {
            this.primitiveByte = primitiveByte;
        }

        public Byte getBoxedByte() {
            return boxedByte;
        }

        public void setBoxedByte(Byte boxedByte) {
            this.boxedByte = boxedByte;
        }

        public short getPrimitiveShort() {
            return primitiveShort;
        }

        public void setPrimitiveShort(short primitiveShort) {
            this.primitiveShort = primitiveShort;
        }

        public Short getBoxedShort() {
            return boxedShort;
        }

        public void setBoxedShort(Short boxedShort) {
            this.boxedShort = boxedShort;
        }

        public int getPrimitiveInt() {
            return primitiveInt;
        }

        public void setPrimitiveInt(int primitiveInt) {
            this.primitiveInt = primitiveInt;
        }

        public Integer getBoxedInt() {
            return boxedInt;
        }

        public void setBoxedInt(Integer boxedInt) {
            this.boxedInt = boxedInt;
        }

        public long getPrimitiveLong() {
            return primitiveLong;
        }

        public void setPrimitiveLong(long primitiveLong) {
            this.primitiveLong = primitiveLong;
        }

        public Long getBoxedLong() {
            return boxedLong;
        }

        public void setBoxedLong(Long boxedLong) {
            this.boxedLong = boxedLong;
        }

        public float getPrimitiveFloat() {
            return primitiveFloat;
        }

        public void setPrimitiveFloat(float primitiveFloat) {
            this.primitiveFloat = primitiveFloat;
        }

        public Float getBoxedFloat() {
            return boxedFloat;
        }

        public void setBoxedFloat(Float boxedFloat) {
            this.boxedFloat = boxedFloat;
        }

        public double getPrimitiveDouble() {
            return primitiveDouble;
        }

        public void setPrimitiveDouble(double primitiveDouble) {
            this.primitiveDouble = primitiveDouble;
        }

        public Double getBoxedDouble() {
            return boxedDouble;
        }

        public void setBoxedDouble(Double boxedDouble) {
            this.boxedDouble = boxedDouble;
        }

        public String getText() {
            return text;
        }

        public void setText(String text) {
            this.text = text;
        }

        public byte[] getBinary() {
            return binary;
        }

        public void setBinary(byte[] binary) {
            this.binary = binary;
        }

        public Timestamp getTimestamp() {
            return timestamp;
        }

        public void setTimestamp(Timestamp timestamp) {
            this.timestamp = timestamp;
        }

        public Instant getInstant() {
            return instant;
        }

        public void setInstant(Instant instant) {
            this.instant = instant;
        }

        public Date getDate() {
            return date;
        }

        public void setDate(Date date) {
            this.date = date;
        }

        public LocalDate getLocalDate() {
            return localDate;
        }

        public void setLocalDate(LocalDate localDate) {
            this.localDate = localDate;
        }

        public LocalDateTime getLocalDateTime() {
            return localDateTime;
        }

        public void setLocalDateTime(LocalDateTime localDateTime) {
            this.localDateTime = localDateTime;
        }

        public BigDecimal getDecimal() {
            return decimal;
        }

        public void setDecimal(BigDecimal decimal) {
            this.decimal = decimal;
        }

        public BigInteger getBigInteger() {
            return bigInteger;
        }

        public void setBigInteger(BigInteger bigInteger) {
            this.bigInteger = bigInteger;
        }

        public Color getColor() {
            return color;
        }

        public void setColor(Color color) {
            this.color = color;
        }

        @Override
        public String toString() {
            return DeepCompare.show(this);
        }
    }

    /** Primitive arrays (non-null elements) and object arrays (nullable elements), nested arrays too. */
    public static final class ArraysBean {
        private boolean[] booleans;
        private short[] shorts;
        private int[] ints;
        private long[] longs;
        private float[] floats;
        private double[] doubles;
        private byte[][] binaries;
        private String[] strings;
        private Integer[] boxedInts;
        private Double[] boxedDoubles;
        private LocalDate[] dates;
        private Timestamp[] timestamps;
        private BigDecimal[] decimals;
        private Color[] colors;
        private LeafBean[] leaves;
        private int[][] matrix;

        public boolean[] getBooleans() {
            return booleans;
        }

        public void setBooleans(boolean[] booleans) {
            this.booleans = booleans;
        }

        public short[] getShorts() {
            return shorts;
        }

        public void setShorts(short[] shorts) {
            this.shorts = shorts;
        }

        public int[] getInts() {
            return ints;
        }

        public void setInts(int[] ints) {
            this.ints = ints;
        }

        public long[] getLongs() {
            return longs;
        }

        public void setLongs(long[] longs) {
            this.longs = longs;
        }

        public float[] getFloats() {
            return floats;
        }

        public void setFloats(float[] floats) {
            this.floats = floats;
        }

        public double[] getDoubles() {
            return doubles;
        }

        public void setDoubles(double[] doubles) {
            this.doubles = doubles;
        }

        public byte[][] getBinaries() {
            return binaries;
        }

        public void setBinaries(byte[][] binaries) {
            this.binaries = binaries;
        }

        public String[] getStrings() {
            return strings;
        }

        public void setStrings(String[] strings) {
            this.strings = strings;
        }

        public Integer[] getBoxedInts() {
            return boxedInts;
        }

        public void setBoxedInts(Integer[] boxedInts) {
            this.boxedInts = boxedInts;
        }

        public Double[] getBoxedDoubles() {
            return boxedDoubles;
        }

        public void setBoxedDoubles(Double[] boxedDoubles) {
            this.boxedDoubles = boxedDoubles;
        }

        public LocalDate[] getDates() {
            return dates;
        }

        public void setDates(LocalDate[] dates) {
            this.dates = dates;
        }

        public Timestamp[] getTimestamps() {
            return timestamps;
        }

        public void setTimestamps(Timestamp[] timestamps) {
            this.timestamps = timestamps;
        }

        public BigDecimal[] getDecimals() {
            return decimals;
        }

        public void setDecimals(BigDecimal[] decimals) {
            this.decimals = decimals;
        }

        public Color[] getColors() {
            return colors;
        }

        public void setColors(Color[] colors) {
            this.colors = colors;
        }

        public LeafBean[] getLeaves() {
            return leaves;
        }

        public void setLeaves(LeafBean[] leaves) {
            this.leaves = leaves;
        }

        public int[][] getMatrix() {
            return matrix;
        }

        public void setMatrix(int[][] matrix) {
            this.matrix = matrix;
        }

        @Override
        public String toString() {
            return DeepCompare.show(this);
        }
    }

    /** java.util.List and java.util.Map fields, nested in each other. */
    public static final class CollectionsBean {
        private List<String> strings;
        private List<Integer> ints;
        private List<List<Long>> nested;
        private List<Timestamp> times;
        private List<Color> colors;
        private List<byte[]> blobs;
        private Map<String, Integer> counts;
        private Map<Integer, List<String>> groups;
        private Map<String, Map<String, Double>> nestedMaps;
        private Map<LocalDate, BigDecimal> byDay;
        private List<Map<String, String>> listOfMaps;

        public List<String> getStrings() {
            return strings;
        }

        public void setStrings(List<String> strings) {
            this.strings = strings;
        }

        public List<Integer> getInts() {
            return ints;
        }

        public void setInts(List<Integer> ints) {
            this.ints = ints;
        }

        public List<List<Long>> getNested() {
            return nested;
        }

        public void setNested(List<List<Long>> nested) {
            this.nested = nested;
        }

        public List<Timestamp> getTimes() {
            return times;
        }

        public void setTimes(List<Timestamp> times) {
            this.times = times;
        }

        public List<Color> getColors() {
            return colors;
        }

        public void setColors(List<Color> colors) {
            this.colors = colors;
        }

        public List<byte[]> getBlobs() {
            return blobs;
        }

        public void setBlobs(List<byte[]> blobs) {
            this.blobs = blobs;
        }

        public Map<String, Integer> getCounts() {
            return counts;
        }

        public void setCounts(Map<String, Integer> counts) {
            this.counts = counts;
        }

        public Map<Integer, List<String>> getGroups() {
            return groups;
        }

        public void setGroups(Map<Integer, List<String>> groups) {
            this.groups = groups;
        }

        public Map<String, Map<String, Double>> getNestedMaps() {
            return nestedMaps;
        }

        public void setNestedMaps(Map<String, Map<String, Double>> nestedMaps) {
            this.nestedMaps = nestedMaps;
        }

        public Map<LocalDate, BigDecimal> getByDay() {
            return byDay;
        }

        public void setByDay(Map<LocalDate, BigDecimal> byDay) {
            this.byDay = byDay;
        }

        public List<Map<String, String>> getListOfMaps() {
            return listOfMaps;
        }

        public void setListOfMaps(List<Map<String, String>> listOfMaps) {
            this.listOfMaps = listOfMaps;
        }

        @Override
        public String toString() {
            return DeepCompare.show(this);
        }
    }

    /** Beans in bean fields, lists, arrays and maps of beans, two levels deep. */
    public static final class NestedBean {
        private String id;
        private InnerBean inner;
        private InnerBean second;
        private List<InnerBean> inners;
        private Map<String, InnerBean> byName;
        private InnerBean[] array;
        private Map<String, List<LeafBean>> leavesByName;
        private List<List<LeafBean>> leafGrid;

        public String getId() {
            return id;
        }

        public void setId(String id) {
            this.id = id;
        }

        public InnerBean getInner() {
            return inner;
        }

        public void setInner(InnerBean inner) {
            this.inner = inner;
        }

        public InnerBean getSecond() {
            return second;
        }

        public void setSecond(InnerBean second) {
            this.second = second;
        }

        public List<InnerBean> getInners() {
            return inners;
        }

        public void setInners(List<InnerBean> inners) {
            this.inners = inners;
        }

        public Map<String, InnerBean> getByName() {
            return byName;
        }

        public void setByName(Map<String, InnerBean> byName) {
            this.byName = byName;
        }

        public InnerBean[] getArray() {
            return array;
        }

        public void setArray(InnerBean[] array) {
            this.array = array;
        }

        public Map<String, List<LeafBean>> getLeavesByName() {
            return leavesByName;
        }

        public void setLeavesByName(Map<String, List<LeafBean>> leavesByName) {
            this.leavesByName = leavesByName;
        }

        public List<List<LeafBean>> getLeafGrid() {
            return leafGrid;
        }

        public void setLeafGrid(List<List<LeafBean>> leafGrid) {
            this.leafGrid = leafGrid;
        }

        @Override
        public String toString() {
            return DeepCompare.show(this);
        }
    }

    /** A bean whose properties are partly inherited from {@link KeyBeanBase} (Spark's bean encoder takes those too). */
    public static final class ChildBean extends KeyBeanBase {
        private String extra;

        public String getExtra() {
            return extra;
        }

        public void setExtra(String extra) {
            this.extra = extra;
        }

        @Override
        public String toString() {
            return DeepCompare.show(this);
        }
    }

    /** The parent of {@link ChildBean}: not final, with a property of each kind a key has. */
    public static class KeyBeanBase {
        private String name;
        private long id;
        private Integer n;

        public String getName() {
            return name;
        }

        public void setName(String name) {
            this.name = name;
        }

        public long getId() {
            return id;
        }

        public void setId(long id) {
            this.id = id;
        }

        public Integer getN() {
            return n;
        }

        public void setN(Integer n) {
            this.n = n;
        }
    }
}
