import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Records the decisions of the EAAI Java players while they play GinRummyGame (the real engine,
 * its source unchanged but for a seed) so that rummylab's Python ports can be checked against them.
 *
 * Compiled by benchmarks/eaai/record_java.py with the framework (tneller/gin-rummy-eaai) and
 * MARJJ_v5 (aqib-a99/MARJJ) in the default package. Writes JSON to standard output:
 * every decision (what the player knew, what it did, and for a discard every card a tie could
 * have given) and every hand as a list of events (to replay on rummylab's engine).
 *
 * Usage: java -Deaai.seed=N RecordEaai GAMES PLAYER0 PLAYER1   (players: simple, marjj)
 */
public class RecordEaai {

	/** java.util.Random whose nextInt(bound) can be forced, and which remembers the bound. */
	static class ScriptedRandom extends Random {
		private static final long serialVersionUID = 1L;
		int forced = -1;
		int lastBound = -1;

		ScriptedRandom(long seed) {
			super(seed);
		}

		@Override
		public int nextInt(int bound) {
			lastBound = bound;
			if (forced >= 0)
				return forced;
			return super.nextInt(bound);
		}
	}

	static StringBuilder positions = new StringBuilder();
	static StringBuilder hands = new StringBuilder();
	static int handNo = -1;
	static int gameNo = 0;
	static StringBuilder events;
	static Card upcard;
	static String[] dealt = new String[2];
	static int starting;
	static boolean knocked;

	static Object get(Object o, String name) {
		try {
			Field f = o.getClass().getDeclaredField(name);
			f.setAccessible(true);
			return f.get(o);
		} catch (ReflectiveOperationException e) {
			throw new RuntimeException(e);
		}
	}

	static void set(Object o, String name, Object value) {
		try {
			Field f = o.getClass().getDeclaredField(name);
			f.setAccessible(true);
			f.set(o, value);
		} catch (ReflectiveOperationException e) {
			throw new RuntimeException(e);
		}
	}

	static String q(Object s) {
		return "\"" + s + "\"";
	}

	static String cards(List<Card> cards) {
		StringBuilder b = new StringBuilder("\"");
		for (int i = 0; i < cards.size(); i++)
			b.append(i == 0 ? "" : " ").append(cards.get(i));
		return b.append("\"").toString();
	}

	static String bits(long bitstring) {
		return cards(GinRummyUtil.bitstringToCards(bitstring));
	}

	static void event(String text) {
		if (events.length() > 0)
			events.append(", ");
		events.append(text);
	}

	/** Wraps a player: passes every call through and writes down what it decided. */
	static class Recorder implements GinRummyPlayer {
		final GinRummyPlayer p;
		final String kind;
		final ScriptedRandom random;
		int num;
		boolean opponentKnocked;
		boolean accepted;

		Recorder(String kind, long seed) {
			this.kind = kind;
			p = kind.equals("simple") ? new SimpleGinRummyPlayer() : new MARJJ_v5();
			random = new ScriptedRandom(seed);
			set(p, "random", random);
		}

		@SuppressWarnings("unchecked")
		ArrayList<Card> hand() {
			return new ArrayList<Card>((ArrayList<Card>) get(p, "cards"));
		}

		String knowledge() {
			if (!kind.equals("marjj"))
				return "";
			MARJJ_v5.GameState g = (MARJJ_v5.GameState) get(p, "gameState");
			return ", \"seen\": " + bits(g.seen) + ", \"opponent_cards\": " + bits(g.opponentCards)
					+ ", \"turns\": " + get(p, "turns");
		}

		String head(String decision) {
			return "{\"player\": " + q(kind) + ", \"game\": " + gameNo + ", \"hand_no\": " + handNo + ", \"seat\": " + num
					+ ", \"decision\": " + q(decision);
		}

		void position(String text) {
			if (positions.length() > 0)
				positions.append(",\n");
			positions.append(text);
		}

		@Override
		public void startGame(int playerNum, int startingPlayerNum, Card[] cards) {
			num = playerNum;
			opponentKnocked = false;
			accepted = false;
			if (playerNum == 0) { // the engine starts player 0 first: a new hand
				if (handNo >= 0)
					endHand();
				handNo++;
				events = new StringBuilder();
				upcard = null;
				knocked = false;
				starting = startingPlayerNum;
			}
			ArrayList<Card> list = new ArrayList<Card>();
			for (Card c : cards)
				list.add(c);
			dealt[playerNum] = cards(list);
			p.startGame(playerNum, startingPlayerNum, cards);
		}

		@Override
		public boolean willDrawFaceUpCard(Card card) {
			if (upcard == null)
				upcard = card;
			ArrayList<Card> before = hand();
			accepted = p.willDrawFaceUpCard(card);
			position(head("draw") + ", \"hand\": " + cards(before) + ", \"card\": " + q(card) + knowledge()
					+ ", \"take\": " + accepted + "}");
			event("[\"offer\", " + num + ", " + q(card) + ", " + accepted + "]");
			return accepted;
		}

		@Override
		public void reportDraw(int playerNum, Card drawnCard) {
			if (playerNum == num) {
				event("[\"draw\", " + num + ", " + q(drawnCard) + ", " + (accepted ? "\"discard\"" : "\"stock\"") + "]");
				accepted = false;
			}
			p.reportDraw(playerNum, drawnCard);
		}

		/** Every card getDiscard could return: call it once per tie index, undoing its side effects. */
		@Override
		@SuppressWarnings("unchecked")
		public Card getDiscard() {
			ArrayList<Card> before = hand();
			String extra;
			Card faceUp = (Card) get(p, "faceUpCard");
			Card drawn = (Card) get(p, "drawnCard");
			String context = ", \"face_up\": " + q(faceUp) + ", \"drawn\": " + q(drawn);
			if (kind.equals("simple")) {
				ArrayList<Long> pairs = (ArrayList<Long>) get(p, "drawDiscardBitstrings");
				StringBuilder b = new StringBuilder(", \"played\": [");
				for (int i = 0; i < pairs.size(); i++)
					b.append(i == 0 ? "" : ", ").append(bits(pairs.get(i)));
				extra = context + b.append("]").toString();
			} else {
				extra = context + knowledge();
			}
			ArrayList<Card> ties = new ArrayList<Card>();
			int n = 1;
			for (int k = 0; k < n; k++) {
				Object undo = kind.equals("simple") ? null : get(p, "turns");
				random.forced = k;
				random.lastBound = -1;
				Card c = p.getDiscard();
				if (random.lastBound > 0)
					n = random.lastBound;
				if (!ties.contains(c))
					ties.add(c);
				if (kind.equals("simple")) {
					ArrayList<Long> pairs = (ArrayList<Long>) get(p, "drawDiscardBitstrings");
					pairs.remove(pairs.size() - 1);
				} else {
					set(p, "turns", undo);
				}
			}
			random.forced = -1;
			Card discard = p.getDiscard();
			position(head("discard") + ", \"hand\": " + cards(before) + extra + ", \"ties\": " + cards(ties)
					+ ", \"discard\": " + q(discard) + "}");
			event("[\"discard\", " + num + ", " + q(discard) + "]");
			return discard;
		}

		@Override
		public void reportDiscard(int playerNum, Card discardedCard) {
			p.reportDiscard(playerNum, discardedCard);
		}

		@Override
		public ArrayList<ArrayList<Card>> getFinalMelds() {
			ArrayList<Card> before = hand();
			String know = kind.equals("marjj") ? ", \"turns\": " + get(p, "turns") : "";
			ArrayList<ArrayList<Card>> melds = p.getFinalMelds();
			if (!opponentKnocked) {
				position(head("knock") + ", \"hand\": " + cards(before) + know + ", \"knock\": " + (melds != null) + "}");
				if (melds != null) {
					event("[\"knock\", " + num + "]");
					knocked = true;
				}
			}
			return melds;
		}

		@Override
		public void reportFinalMelds(int playerNum, ArrayList<ArrayList<Card>> melds) {
			if (playerNum != num)
				opponentKnocked = true;
			p.reportFinalMelds(playerNum, melds);
		}

		@Override
		public void reportScores(int[] scores) {
			p.reportScores(scores);
			if (num == 1)
				event("[\"scores\", " + scores[0] + ", " + scores[1] + "]");
		}

		@Override
		public void reportLayoff(int playerNum, Card layoffCard, ArrayList<Card> opponentMeld) {
			p.reportLayoff(playerNum, layoffCard, opponentMeld);
		}

		@Override
		public void reportFinalHand(int playerNum, ArrayList<Card> hand) {
			p.reportFinalHand(playerNum, hand);
		}
	}

	static void endHand() {
		if (hands.length() > 0)
			hands.append(",\n");
		hands.append("{\"game\": " + gameNo + ", \"hand_no\": " + handNo + ", \"starting\": " + starting
				+ ", \"dealt\": [" + dealt[0] + ", " + dealt[1] + "], \"upcard\": " + q(upcard)
				+ ", \"knocked\": " + knocked + ", \"events\": [" + events + "]}");
	}

	public static void main(String[] args) {
		int games = Integer.parseInt(args[0]);
		long seed = Long.getLong("eaai.seed", 1L);
		Recorder r0 = new Recorder(args[1], seed * 2 + 1);
		Recorder r1 = new Recorder(args[2], seed * 2 + 2);
		GinRummyGame game = new GinRummyGame(r0, r1);
		for (gameNo = 0; gameNo < games; gameNo++) {
			int winner = game.play();
			endHand();
			handNo = -1;
			events = null;
			System.err.println("game " + gameNo + " won by " + winner);
		}
		System.out.println("{\"players\": [" + q(args[1]) + ", " + q(args[2]) + "], \"seed\": " + seed
				+ ",\n\"positions\": [\n" + positions + "],\n\"hands\": [\n" + hands + "]}");
	}
}
