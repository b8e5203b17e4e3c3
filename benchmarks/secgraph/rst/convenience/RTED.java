// privlab adapter (our code, not SecGraph's, not APTED's): the one method SecGraph's
// RandomizedSpanningTree calls, convenience.RTED.computeDistanceAndMapping, whose source SecGraph
// does not ship, implemented on APTED -- the tree edit distance of Pawlik & Augsten that succeeds
// their RTED (same authors, same distance; MIT licence, github.com/DatabaseGroup/apted), which the
// build compiles beside SecGraph from its own checkout.  Built by benchmarks/secgraph/build_rst.sh.
//
// What SecGraph's own wrapper did with its third argument (the seed map) is not recoverable.  We
// assume the natural reading: t1 and t2 are SecGraph's tree strings "{id{child}...}" (ids of G1 and
// G2); a seed of G1 is labelled by its G2 partner's id and a seed of G2 by its own id, so a seed
// kept on its partner costs 0; every other node gets one common label, so that relabelling two
// non-seeds is free and the raw ids (equal on SecGraph's own pairs) cannot leak the answer.
// Unit costs.  Returns the distance and the node-id pairs APTED's optimal mapping keeps.
package convenience;

import at.unisalzburg.dbresearch.apted.costmodel.StringUnitCostModel;
import at.unisalzburg.dbresearch.apted.distance.APTED;
import at.unisalzburg.dbresearch.apted.node.Node;
import at.unisalzburg.dbresearch.apted.node.StringNodeData;
import common.Pair;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedList;
import java.util.List;

public final class RTED {
    private RTED() {}

    /** Parses "{id{child}...}" iteratively; fills ids in postorder. */
    private static Node<StringNodeData> parse(String s, HashMap<Integer, String> label,
            List<Integer> post) {
        ArrayDeque<Node<StringNodeData>> open = new ArrayDeque<>();
        ArrayDeque<Integer> openIds = new ArrayDeque<>();
        Node<StringNodeData> root = null;
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '{') {
                int j = i + 1;
                while (s.charAt(j) != '{' && s.charAt(j) != '}') j++;
                int id = Integer.parseInt(s.substring(i + 1, j).trim());
                Node<StringNodeData> n = new Node<>(new StringNodeData(label.getOrDefault(id, "*")));
                if (open.isEmpty()) root = n; else open.peek().addChild(n);
                open.push(n);
                openIds.push(id);
                i = j;
            } else if (c == '}') {
                open.pop();
                post.add(openIds.pop());
                i++;
            } else {
                i++;
            }
        }
        return root;
    }

    public static Pair<Double, LinkedList<int[]>> computeDistanceAndMapping(
            String t1, String t2, HashMap<Integer, Integer> cTosMapping) {
        HashMap<Integer, String> l1 = new HashMap<>();
        HashMap<Integer, String> l2 = new HashMap<>();
        for (int a : cTosMapping.keySet()) {
            l1.put(a, "s" + cTosMapping.get(a));
            l2.put(cTosMapping.get(a), "s" + cTosMapping.get(a));
        }
        List<Integer> post1 = new ArrayList<>();
        List<Integer> post2 = new ArrayList<>();
        Node<StringNodeData> a = parse(t1, l1, post1);
        Node<StringNodeData> b = parse(t2, l2, post2);
        APTED<StringUnitCostModel, StringNodeData> apted = new APTED<>(new StringUnitCostModel());
        double d = apted.computeEditDistance(a, b);
        LinkedList<int[]> pairs = new LinkedList<>();
        for (int[] m : apted.computeEditMapping()) {
            if (m[0] != 0 && m[1] != 0) {
                pairs.add(new int[] {post1.get(m[0] - 1), post2.get(m[1] - 1)});
            }
        }
        return new Pair<Double, LinkedList<int[]>>(d, pairs);
    }
}
