/**
 * Games won by each Java player on the EAAI engine (GinRummyGame), for comparing with the ports
 * on rummylab's engine (benchmarks/eaai/versus.py). Build as record_java.py does, then:
 * java -Deaai.seed=N -cp BUILD VersusEaai GAMES PLAYER0 PLAYER1   (players: simple, marjj)
 * Seats alternate every game (the engine draws who starts each game).
 */
public class VersusEaai {
	static GinRummyPlayer make(String kind) {
		return kind.equals("simple") ? new SimpleGinRummyPlayer() : new MARJJ_v5();
	}

	public static void main(String[] args) {
		int games = Integer.parseInt(args[0]);
		int[] wins = new int[2];
		for (int i = 0; i < games; i++) {
			int seat = i % 2; // where args[1]'s player sits
			GinRummyPlayer a = make(args[1]), b = make(args[2]);
			GinRummyGame game = seat == 0 ? new GinRummyGame(a, b) : new GinRummyGame(b, a);
			int winner = game.play();
			wins[winner == seat ? 0 : 1]++;
		}
		System.out.println(args[1] + " " + wins[0] + " " + args[2] + " " + wins[1]);
	}
}
