/*
 * ARX's optimal full-domain search on Adult, timed the way REFERENCE_RESULTS.md timed it.
 *
 * Not part of privlab: compiled and run by benchmarks/bench_arx.py against an ARX 3.9.x
 * build given on the class path (ARX is never a privlab dependency).
 *
 *   javac -cp ARX_CLASSPATH -d OUT ArxAdult.java
 *   java -cp OUT:ARX_CLASSPATH ArxAdult DATA_DIR REPEAT LIMIT [LIMIT ...]
 *
 * DATA_DIR holds adult.csv (';' separated, header line) and adult_hierarchy_<column>.csv.
 * Set-up: every column a quasi-identifier with its hierarchy, k = 5, ARX's default quality
 * model (Loss: gs = 0.5, geometric aggregation), ARX's default algorithm (optimal, Flash),
 * suppression limit LIMIT (a fraction: 0, 0.02).  For each limit: 2 warm-ups, then REPEAT
 * timed runs of ARXAnonymizer.anonymize (System.nanoTime around that call alone; reading
 * the CSV and building the Data object excluded), and one JSON line on stdout:
 *
 *   {"limit":0.02,"columns":[...],"levels":[...],"loss":...,"loss_hex":"...",
 *    "suppressed":506,"classes":222,"median_s":...,"times_s":[...],...}
 *
 * levels are in column order; loss is the optimum's information loss as ARX reports it
 * (ARXNode.getHighestScore(), equal to getLowestScore() for a checked node; for Loss the
 * geometric aggregate ARX prints, parsed back exactly), loss_hex the
 * same double exactly (Double.toHexString); suppressed and classes come from the output
 * handle's equivalence-class statistics (classes exclude the suppressed records).  Every run
 * (warm-ups included) must return the same optimum, else the program fails.
 */

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.deidentifier.arx.ARXAnonymizer;
import org.deidentifier.arx.ARXConfiguration;
import org.deidentifier.arx.ARXLattice.ARXNode;
import org.deidentifier.arx.ARXResult;
import org.deidentifier.arx.AttributeType;
import org.deidentifier.arx.AttributeType.Hierarchy;
import org.deidentifier.arx.Data;
import org.deidentifier.arx.DataHandle;
import org.deidentifier.arx.aggregates.StatisticsEquivalenceClasses;
import org.deidentifier.arx.criteria.KAnonymity;
import org.deidentifier.arx.metric.InformationLoss;

public class ArxAdult {

    static final int K = 5;
    static final int WARMUPS = 2;

    static String q(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                b.append('\\');
            }
            b.append(c);
        }
        return b.append('"').toString();
    }

    /** The value ARX reports for an information loss: its aggregate (toString), exactly. */
    static double lossValue(InformationLoss<?> loss) {
        Object value = loss.getValue();
        if (value instanceof Number) {
            return ((Number) value).doubleValue();
        }
        // multi-dimensional losses (Loss is one) print their aggregate with String.valueOf(double),
        // which parses back to the same double
        return Double.parseDouble(loss.toString());
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: ArxAdult DATA_DIR REPEAT LIMIT [LIMIT ...]");
            System.exit(2);
        }
        File dir = new File(args[0]);
        int repeat = Integer.parseInt(args[1]);

        Data data = Data.create(new File(dir, "adult.csv"), StandardCharsets.UTF_8, ';');
        DataHandle input = data.getHandle();
        String[] columns = new String[input.getNumColumns()];
        for (int i = 0; i < columns.length; i++) {
            columns[i] = input.getAttributeName(i);
            Hierarchy h = Hierarchy.create(
                    new File(dir, "adult_hierarchy_" + columns[i] + ".csv"), StandardCharsets.UTF_8, ';');
            data.getDefinition().setAttributeType(columns[i], AttributeType.QUASI_IDENTIFYING_ATTRIBUTE);
            data.getDefinition().setAttributeType(columns[i], h);
        }
        int rows = input.getNumRows();

        for (int a = 2; a < args.length; a++) {
            double limit = Double.parseDouble(args[a]);
            ARXConfiguration config = ARXConfiguration.create();   // default: Loss metric, OPTIMAL
            config.addPrivacyModel(new KAnonymity(K));
            config.setSuppressionLimit(limit);

            List<Double> times = new ArrayList<>();
            int[] levels = null;
            double loss = Double.NaN;
            String algorithm = config.getAlgorithm().toString();
            String metric = config.getQualityModel().toString();
            int suppressed = -1;
            int classes = -1;
            for (int run = 0; run < WARMUPS + repeat; run++) {
                ARXAnonymizer anonymizer = new ARXAnonymizer();
                long t0 = System.nanoTime();
                ARXResult result = anonymizer.anonymize(data, config);
                long t1 = System.nanoTime();
                if (run >= WARMUPS) {
                    times.add((t1 - t0) / 1e9);
                }
                ARXNode node = result.getGlobalOptimum();
                if (node == null) {
                    throw new IllegalStateException("ARX found no solution for limit " + limit);
                }
                int[] lv = new int[columns.length];
                for (int i = 0; i < columns.length; i++) {
                    lv[i] = node.getGeneralization(columns[i]);
                }
                double hi = lossValue(node.getHighestScore());
                double lo = lossValue(node.getLowestScore());
                if (hi != lo) {
                    throw new IllegalStateException("optimum's loss not exact: " + lo + " .. " + hi);
                }
                if (levels == null) {
                    levels = lv;
                    loss = hi;
                } else if (!Arrays.equals(levels, lv) || loss != hi) {
                    throw new IllegalStateException("optimum differs between runs: "
                            + Arrays.toString(levels) + " " + loss + " vs " + Arrays.toString(lv) + " " + hi);
                }
                if (run == WARMUPS + repeat - 1) {
                    StatisticsEquivalenceClasses ec =
                            result.getOutput().getStatistics().getEquivalenceClassStatistics();
                    suppressed = ec.getNumberOfSuppressedRecords();
                    classes = ec.getNumberOfEquivalenceClasses();
                }
                input.release();   // unlock the input for the next anonymize call
            }
            List<Double> sorted = new ArrayList<>(times);
            sorted.sort(null);
            int n = sorted.size();
            double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;

            StringBuilder out = new StringBuilder("{");
            out.append("\"limit\":").append(limit);
            out.append(",\"k\":").append(K);
            out.append(",\"rows\":").append(rows);
            out.append(",\"columns\":[");
            for (int i = 0; i < columns.length; i++) {
                out.append(i > 0 ? "," : "").append(q(columns[i]));
            }
            out.append("],\"levels\":[");
            for (int i = 0; i < levels.length; i++) {
                out.append(i > 0 ? "," : "").append(levels[i]);
            }
            out.append("],\"loss\":").append(Double.toString(loss));
            out.append(",\"loss_hex\":").append(q(Double.toHexString(loss)));
            out.append(",\"suppressed\":").append(suppressed);
            out.append(",\"classes\":").append(classes);
            out.append(",\"median_s\":").append(String.format(Locale.ROOT, "%.6f", median));
            out.append(",\"times_s\":[");
            for (int i = 0; i < times.size(); i++) {
                out.append(i > 0 ? "," : "").append(String.format(Locale.ROOT, "%.6f", times.get(i)));
            }
            out.append("],\"warmups\":").append(WARMUPS);
            out.append(",\"algorithm\":").append(q(algorithm));
            out.append(",\"quality_model\":").append(q(metric));
            out.append(",\"arx_location\":").append(q(String.valueOf(
                    ARXAnonymizer.class.getProtectionDomain().getCodeSource().getLocation())));
            out.append(",\"java\":").append(q(System.getProperty("java.vm.name") + " "
                    + System.getProperty("java.runtime.version")));
            out.append("}");
            System.out.println(out);
            System.out.flush();
        }
    }
}
