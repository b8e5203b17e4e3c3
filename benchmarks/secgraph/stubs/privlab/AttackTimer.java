// privlab's timing harness (our code, not SecGraph's): runs one SecGraph de-anonymization attack
// the way its command line does -- SecGraph's own readers (common.Graph.readUndirectedGraph,
// Graph.getSeeds), then SecGraph's attack method -- and times the attack call alone, so that
// benchmarks/bench_graph_attacks.py --attack-only can set it beside privlab's in-process figure.
// The output file has the pairs and the summary line in the format of SecGraph's -gO file.
//
//   java -cp secgraph-cli.jar privlab.AttackTimer NS gA gB seeds out THETA
//   java -cp secgraph-cli.jar privlab.AttackTimer Reconciliation gA gB seeds out NTEST
//   java -cp secgraph-cli.jar privlab.AttackTimer DV gA gB seeds out BSIZE NKEEP MODE
//   java -cp secgraph-cli.jar privlab.AttackTimer Percolation gA gB seeds out NKEEP
//   java -cp secgraph-cli.jar privlab.AttackTimer SJCCS2014 gA gB seeds out BSIZE NKEEP DEGW NEIW DISW NNEI MODE
//     (JLSB; its pairs are written g2 g1, as SecGraph's own -gO file)
//
// Prints "ATTACK_ONLY wall_s=<s> cpu_s=<s>" on stderr: the attack call's wall time and the
// JVM's process CPU time over it (every thread: the main one, JIT compilers, GC).
package privlab;

import common.Graph;
import deAnonymize.DV;
import deAnonymize.Percolation;
import deAnonymize.SJCCS2014;
import deAnonymize.UndirectionedPropagation;
import deAnonymize.UserMatching;
import java.io.BufferedWriter;
import java.io.FileWriter;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.HashSet;

public final class AttackTimer {
    private AttackTimer() {}

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean)
                ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    @SuppressWarnings("unchecked")
    public static void main(String[] args) throws Exception {
        if (args.length < 6) {
            System.err.println("usage: AttackTimer NS|Reconciliation|DV|Percolation|SJCCS2014 gA gB seeds out ARGS...");
            System.exit(2);
        }
        HashMap<Integer, HashSet<Integer>> g1 = Graph.readUndirectedGraph(args[1]);
        HashMap<Integer, HashSet<Integer>> g2 = Graph.readUndirectedGraph(args[2]);
        HashMap<Integer, Integer> seeds = Graph.getSeeds(args[3]);
        HashMap<Integer, Integer> res;
        long cpu0 = processCpuNanos();
        long t0 = System.nanoTime();
        switch (args[0]) {
            case "NS": {
                Field theta = UndirectionedPropagation.class.getDeclaredField("theta");
                theta.setAccessible(true);
                theta.setDouble(null, Double.parseDouble(args[5]));
                res = UndirectionedPropagation.propagationMethod(g1, g2, seeds);
                break;
            }
            case "Reconciliation":
                res = UserMatching.userMatching(g1, g2, seeds, Integer.parseInt(args[5]));
                break;
            case "DV": {
                Method m = DV.class.getDeclaredMethod("distanceVector", HashMap.class,
                        HashMap.class, HashMap.class, int.class, int.class, String.class);
                m.setAccessible(true);
                res = (HashMap<Integer, Integer>) m.invoke(null, g1, g2, seeds,
                        Integer.parseInt(args[5]), Integer.parseInt(args[6]), args[7]);
                break;
            }
            case "Percolation":
                res = Percolation.percolationMethod(g1, g2, seeds, Integer.parseInt(args[5]));
                break;
            case "SJCCS2014": {
                Method m = SJCCS2014.class.getDeclaredMethod("runSJCCS2014", HashMap.class,
                        HashMap.class, HashMap.class, int.class, int.class, double.class,
                        double.class, double.class, int.class, String.class);
                m.setAccessible(true);
                res = (HashMap<Integer, Integer>) m.invoke(null, g1, g2, seeds,
                        Integer.parseInt(args[5]), Integer.parseInt(args[6]),
                        Double.parseDouble(args[7]), Double.parseDouble(args[8]),
                        Double.parseDouble(args[9]), Integer.parseInt(args[10]), args[11]);
                break;
            }
            default:
                System.err.println("unknown attack " + args[0]);
                System.exit(2);
                return;
        }
        long t1 = System.nanoTime();
        long cpu1 = processCpuNanos();
        try (BufferedWriter w = new BufferedWriter(new FileWriter(args[4]))) {
            int right = 0;
            for (int i : res.keySet()) {
                if (i == res.get(i)) {
                    right++;
                }
                w.write(i + " " + res.get(i) + "\n");
            }
            w.write(args[4] + " " + right + "/" + res.size() + " " + g1.size() + " " + g2.size() + "\n");
        }
        System.err.println("ATTACK_ONLY wall_s=" + (t1 - t0) / 1e9 + " cpu_s=" + (cpu1 - cpu0) / 1e9);
    }
}
