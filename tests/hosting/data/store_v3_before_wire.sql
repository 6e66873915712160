-- A data directory written by croupier at main 820cb2e (schema 3, before the one wire format): three finished
-- hands of one bot table (tests/hosting/store_play.py, seed 5) and a notice in words only. Loaded by
-- tests/hosting/test_event_codec.py to prove old stored rows still read.
BEGIN TRANSACTION;
CREATE TABLE account_keys (
        name TEXT NOT NULL REFERENCES accounts(name),
        public_key TEXT NOT NULL,
        added_at REAL NOT NULL,
        PRIMARY KEY (name, public_key)
    );
INSERT INTO "account_keys" VALUES('bot1_0','ssh-ed25519 KEY0xbot1_0',1.79614587116162061691e+09);
INSERT INTO "account_keys" VALUES('bot1_1','ssh-ed25519 KEY0xbot1_1',1.79614587116535568238e+09);
INSERT INTO "account_keys" VALUES('bot1_2','ssh-ed25519 KEY0xbot1_2',1.79614587116933822636e+09);
INSERT INTO "account_keys" VALUES('bot1_3','ssh-ed25519 KEY0xbot1_3',1.79614587117334485047e+09);
INSERT INTO "account_keys" VALUES('bot1_4','ssh-ed25519 KEY0xbot1_4',1.79614587118135523797e+09);
INSERT INTO "account_keys" VALUES('bot1_5','ssh-ed25519 KEY0xbot1_5',1.79614587118935632704e+09);
CREATE TABLE accounts (
        name TEXT PRIMARY KEY,
        registered_at REAL NOT NULL
    );
INSERT INTO "accounts" VALUES('bot1_0',1.79614587116162061691e+09);
INSERT INTO "accounts" VALUES('bot1_1',1.79614587116535568238e+09);
INSERT INTO "accounts" VALUES('bot1_2',1.79614587116933822636e+09);
INSERT INTO "accounts" VALUES('bot1_3',1.79614587117334485047e+09);
INSERT INTO "accounts" VALUES('bot1_4',1.79614587118135523797e+09);
INSERT INTO "accounts" VALUES('bot1_5',1.79614587118935632704e+09);
CREATE TABLE balances (
        name TEXT PRIMARY KEY REFERENCES accounts(name),
        amount INTEGER NOT NULL CHECK (amount >= 0)
    );
INSERT INTO "balances" VALUES('bot1_0',9000);
INSERT INTO "balances" VALUES('bot1_1',0);
INSERT INTO "balances" VALUES('bot1_2',0);
INSERT INTO "balances" VALUES('bot1_3',0);
INSERT INTO "balances" VALUES('bot1_4',0);
INSERT INTO "balances" VALUES('bot1_5',9268);
CREATE TABLE chat (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at REAL NOT NULL,
        sender TEXT NOT NULL,
        table_id TEXT,
        text TEXT NOT NULL
    );
CREATE TABLE hands (
        id TEXT PRIMARY KEY,
        table_id TEXT NOT NULL,
        number INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('running', 'finished', 'voided')),
        started_at REAL NOT NULL,
        finished_at REAL,
        players TEXT NOT NULL,
        snapshot TEXT NOT NULL,
        events TEXT,
        result TEXT,
        transcript TEXT
    );
INSERT INTO "hands" VALUES('t1-1','t1',1,'finished',1700000000.0,1.79614587121645832065e+09,'{"0": "bot1_0", "1": "bot1_1", "2": "bot1_2", "3": "bot1_3", "4": "bot1_4", "5": "bot1_5"}','{"forced_bets": {"ante": 0, "big_blind": 10, "big_blind_ante": 0, "big_blind_seat": 4, "big_blinds_out_of_position": [], "bring_in": 0, "button_seat": 2, "dead_antes": false, "dead_small_blinds": [], "small_blind": 5, "small_blind_seat": 3, "straddle": 0, "straddle_seat": null}, "settings": {"ante": 0, "big_blind": 10, "bring_in": 0, "clock": {"action_seconds": 20.0, "time_bank_seconds": 60.0}, "game": "texas_holdem", "id": "t1", "jackpot": null, "manual_showdown": false, "max_buy_in": 1000, "min_buy_in": 400, "name": "Table t1", "rake": "none", "seats": 6, "small_blind": 5, "spread": null, "straddle": false, "structure": "no_limit"}, "stacks": {"0": 1000, "1": 1000, "2": 1000, "3": 1000, "4": 1000, "5": 1000}}','[{"event": "hand_started", "variant": "texas_holdem", "structure": "no_limit", "button_seat": 2, "stacks": [[3, 1000], [4, 1000], [5, 1000], [0, 1000], [1, 1000], [2, 1000]]}, {"event": "blind_posted", "seat": 3, "kind": "small_blind", "amount": 5, "live": true, "all_in": false}, {"event": "blind_posted", "seat": 4, "kind": "big_blind", "amount": 10, "live": true, "all_in": false}, {"event": "hole_cards_dealt", "seat": 3, "cards": ["Td", "6h"]}, {"event": "hole_cards_dealt", "seat": 4, "cards": ["Ah", "7c"]}, {"event": "hole_cards_dealt", "seat": 5, "cards": ["8d", "2h"]}, {"event": "hole_cards_dealt", "seat": 0, "cards": ["Tc", "3c"]}, {"event": "hole_cards_dealt", "seat": 1, "cards": ["Th", "8s"]}, {"event": "hole_cards_dealt", "seat": 2, "cards": ["3h", "Qc"]}, {"event": "betting_round_started", "round_index": 0, "street": "preflop", "pot": 15}, {"event": "called", "seat": 5, "amount": 10, "all_in": false}, {"event": "folded", "seat": 0, "left_table": false}, {"event": "folded", "seat": 1, "left_table": false}, {"event": "folded", "seat": 2, "left_table": false}, {"event": "folded", "seat": 3, "left_table": false}, {"event": "checked", "seat": 4}, {"event": "board_dealt", "street": "flop", "cards": ["Jd", "4h", "Kd"], "board": ["Jd", "4h", "Kd"]}, {"event": "betting_round_started", "round_index": 1, "street": "flop", "pot": 25}, {"event": "bet_placed", "seat": 4, "to": 10, "added": 10, "all_in": false}, {"event": "raised", "seat": 5, "to": 253, "added": 253, "all_in": false, "full": true}, {"event": "called", "seat": 4, "amount": 243, "all_in": false}, {"event": "board_dealt", "street": "turn", "cards": ["2s"], "board": ["Jd", "4h", "Kd", "2s"]}, {"event": "betting_round_started", "round_index": 2, "street": "turn", "pot": 531}, {"event": "checked", "seat": 4}, {"event": "checked", "seat": 5}, {"event": "board_dealt", "street": "river", "cards": ["2d"], "board": ["Jd", "4h", "Kd", "2s", "2d"]}, {"event": "betting_round_started", "round_index": 3, "street": "river", "pot": 531}, {"event": "checked", "seat": 4}, {"event": "checked", "seat": 5}, {"event": "hand_shown", "seat": 4, "cards": ["Ah", "7c"], "description": "pair of deuces"}, {"event": "hand_shown", "seat": 5, "cards": ["8d", "2h"], "description": "three deuces"}, {"event": "pot_awarded", "pot_index": 0, "seat": 5, "amount": 531, "share": "whole", "pot_total": 531, "description": "three deuces"}, {"event": "hand_ended", "stacks": [[3, 995], [4, 737], [5, 1268], [0, 1000], [1, 1000], [2, 1000]], "rake": 0}]','{"put_in": {"3": 5, "4": 263, "5": 263}, "awarded": {"5": 531}, "final": {"3": 995, "4": 737, "5": 1268, "0": 1000, "1": 1000, "2": 1000}, "rake": 0, "jackpot": 0}','{"cards": ["2c", "2d", "2h", "2s", "3c", "3d", "3h", "3s", "4c", "4d", "4h", "4s", "5c", "5d", "5h", "5s", "6c", "6d", "6h", "6s", "7c", "7d", "7h", "7s", "8c", "8d", "8h", "8s", "9c", "9d", "9h", "9s", "Tc", "Td", "Th", "Ts", "Jc", "Jd", "Jh", "Js", "Qc", "Qd", "Qh", "Qs", "Kc", "Kd", "Kh", "Ks", "Ac", "Ad", "Ah", "As"], "commitments": {"0": "51b1a2a574403cf3037e469a3a2d58be8f83b9fd8b0f2dd31dc0bdd983b24192", "1": "195bb2335a360577632cb6c581f8ab8515cfb104eab0fcaaa7d8e26c758bba69", "2": "c454ae6013393644757dbf9a54fd0822acb4889eb1cd8623f73a5261883f3709", "3": "56494026c00e60231b583e38834a4df82e9825af48a23b98dd7c97834c947f02", "4": "6745de52f6ec531c8a7dcdbd55a142d8c85968fe83b244d5634d516b635be24d", "5": "bbcd85bbf7187f9419dade8ea03b4e1d9233123014afd0d13a877f269ac7839f", "host": "e1988793a09a0e49837c956eb005efd90d4e6b332b8dab69aaf55f7517dd088f"}, "deals": [[0, 3], [1, 4], [2, 5], [3, 0], [4, 1], [5, 2], [6, 3], [7, 4], [8, 5], [9, 0], [10, 1], [11, 2], [12, "board"], [13, "board"], [14, "board"], [15, "board"], [16, "board"]], "forfeited": [], "hand": "t1-1", "room": "room-under-test", "seeds": {"0": "e88e602f2640a143c61a764ae40222d44e8c3e7cd6803316dac8cdeab244e5c2", "1": "ee1d0d2ea4d65ed76652d94d13196a15e0f8601f2bb307a7d0ae42c79ec5d5ee", "2": "f77928b34b0f7921265fb46f5a536069463edcf8cad7fbb26a7e1a5c37c28cee", "3": "52cfceba844e1c51a26529495fa371e5b2d15f492678befdfb246e7b512e2459", "4": "ea5e33e16ebd8851e9abf63da8b0da014f3cddd8a471070c0bdd7a992417ef84", "5": "2a1d579a25ca09876f5d82ccca21f7b6a43ac845345286b7027a725515d43d5f", "host": "8dc8ae1778fdd53b20d34e669b50ba5143a112f645613a16ce242ad799806917"}, "table": "t1"}');
INSERT INTO "hands" VALUES('t1-2','t1',2,'finished',1700000000.0,1.79614587122015047075e+09,'{"0": "bot1_0", "1": "bot1_1", "2": "bot1_2", "3": "bot1_3", "4": "bot1_4", "5": "bot1_5"}','{"forced_bets": {"ante": 0, "big_blind": 10, "big_blind_ante": 0, "big_blind_seat": 5, "big_blinds_out_of_position": [], "bring_in": 0, "button_seat": 3, "dead_antes": false, "dead_small_blinds": [], "small_blind": 5, "small_blind_seat": 4, "straddle": 0, "straddle_seat": null}, "settings": {"ante": 0, "big_blind": 10, "bring_in": 0, "clock": {"action_seconds": 20.0, "time_bank_seconds": 60.0}, "game": "texas_holdem", "id": "t1", "jackpot": null, "manual_showdown": false, "max_buy_in": 1000, "min_buy_in": 400, "name": "Table t1", "rake": "none", "seats": 6, "small_blind": 5, "spread": null, "straddle": false, "structure": "no_limit"}, "stacks": {"0": 1000, "1": 1000, "2": 1000, "3": 995, "4": 737, "5": 1268}}','[{"event": "hand_started", "variant": "texas_holdem", "structure": "no_limit", "button_seat": 3, "stacks": [[4, 737], [5, 1268], [0, 1000], [1, 1000], [2, 1000], [3, 995]]}, {"event": "blind_posted", "seat": 4, "kind": "small_blind", "amount": 5, "live": true, "all_in": false}, {"event": "blind_posted", "seat": 5, "kind": "big_blind", "amount": 10, "live": true, "all_in": false}, {"event": "hole_cards_dealt", "seat": 4, "cards": ["Ks", "7d"]}, {"event": "hole_cards_dealt", "seat": 5, "cards": ["9c", "Js"]}, {"event": "hole_cards_dealt", "seat": 0, "cards": ["Jh", "3h"]}, {"event": "hole_cards_dealt", "seat": 1, "cards": ["3d", "Qh"]}, {"event": "hole_cards_dealt", "seat": 2, "cards": ["4d", "Qc"]}, {"event": "hole_cards_dealt", "seat": 3, "cards": ["2c", "5d"]}, {"event": "betting_round_started", "round_index": 0, "street": "preflop", "pot": 15}, {"event": "raised", "seat": 0, "to": 20, "added": 20, "all_in": false, "full": true}, {"event": "called", "seat": 1, "amount": 20, "all_in": false}, {"event": "folded", "seat": 2, "left_table": false}, {"event": "raised", "seat": 3, "to": 30, "added": 30, "all_in": false, "full": true}, {"event": "called", "seat": 4, "amount": 25, "all_in": false}, {"event": "raised", "seat": 5, "to": 1268, "added": 1258, "all_in": true, "full": true}, {"event": "called", "seat": 0, "amount": 980, "all_in": true}, {"event": "called", "seat": 1, "amount": 980, "all_in": true}, {"event": "folded", "seat": 3, "left_table": false}, {"event": "called", "seat": 4, "amount": 707, "all_in": true}, {"event": "uncalled_bet_returned", "seat": 5, "amount": 268}, {"event": "hand_shown", "seat": 4, "cards": ["Ks", "7d"], "description": ""}, {"event": "hand_shown", "seat": 5, "cards": ["9c", "Js"], "description": ""}, {"event": "hand_shown", "seat": 0, "cards": ["Jh", "3h"], "description": ""}, {"event": "hand_shown", "seat": 1, "cards": ["3d", "Qh"], "description": ""}, {"event": "board_dealt", "street": "flop", "cards": ["5h", "Tc", "3c"], "board": ["5h", "Tc", "3c"]}, {"event": "board_dealt", "street": "turn", "cards": ["7h"], "board": ["5h", "Tc", "3c", "7h"]}, {"event": "board_dealt", "street": "river", "cards": ["7s"], "board": ["5h", "Tc", "3c", "7h", "7s"]}, {"event": "pot_awarded", "pot_index": 1, "seat": 1, "amount": 789, "share": "whole", "pot_total": 789, "description": "two pair, sevens and threes, queen kicker"}, {"event": "pot_awarded", "pot_index": 0, "seat": 4, "amount": 2978, "share": "whole", "pot_total": 2978, "description": "three sevens"}, {"event": "hand_ended", "stacks": [[4, 2978], [5, 268], [0, 0], [1, 789], [2, 1000], [3, 965]], "rake": 0}]','{"put_in": {"4": 737, "5": 1000, "0": 1000, "1": 1000, "3": 30}, "awarded": {"1": 789, "4": 2978}, "final": {"4": 2978, "5": 268, "0": 0, "1": 789, "2": 1000, "3": 965}, "rake": 0, "jackpot": 0}','{"cards": ["2c", "2d", "2h", "2s", "3c", "3d", "3h", "3s", "4c", "4d", "4h", "4s", "5c", "5d", "5h", "5s", "6c", "6d", "6h", "6s", "7c", "7d", "7h", "7s", "8c", "8d", "8h", "8s", "9c", "9d", "9h", "9s", "Tc", "Td", "Th", "Ts", "Jc", "Jd", "Jh", "Js", "Qc", "Qd", "Qh", "Qs", "Kc", "Kd", "Kh", "Ks", "Ac", "Ad", "Ah", "As"], "commitments": {"0": "4aebc68028f7037f02206edd4ab4b2a45dcd046cfa52efeb422b78e1dee1ff8d", "1": "a375356389d6e02187e9039b0fa4599dd79283cb7510be3c97d4244307202a65", "2": "a426e3e47e78acc40ebf655265afd9af78c2112844925ea9aa7f640e04c85cc0", "3": "82f41889a9b0f0a0195772b4690c9adaf5f862f7571f9f72d9dc099ff1d76bb8", "4": "ff07bc456f9c2dd6f93808e233fcac33b25000bc86a8afded344f59391e602ae", "5": "9bb97763bcebd9feb40026aec86ba128f337a757ee96d1e022dc8df507aad9ff", "host": "6d23651095182203d5f4114f54eeb4fb616c60cb256ac4e582ecafe53be5f60e"}, "deals": [[0, 4], [1, 5], [2, 0], [3, 1], [4, 2], [5, 3], [6, 4], [7, 5], [8, 0], [9, 1], [10, 2], [11, 3], [12, "board"], [13, "board"], [14, "board"], [15, "board"], [16, "board"]], "forfeited": [], "hand": "t1-2", "room": "room-under-test", "seeds": {"0": "9feb392afb135ed8485ab051c7bb5f429478fc1bfda8980d6b2e1b165de9013b", "1": "84986b794d5ad1368d8b03082cbfa359f7745439dcfda5f1035fd86a77845a77", "2": "d95111c5d63f48f7db1967bb2a1afa644c1488c3e6dcff1e71ed5b70220775d0", "3": "50e576e288c71d25c58f2114ba32098057b08e7a1bb4678fb503e64c4099b7e3", "4": "ffa6fd2ba556e923322147b29354a9a47e4d42f38da32c9a2c96d36d1ba44898", "5": "1f0ca327114097feaf158cd63026614aef5131bdbb0e70db73b20ae7d9305470", "host": "57442ac2b54ab7080b8d2133cfe21233c5f0e2964791c1b1d9daed52918fa622"}, "table": "t1"}');
INSERT INTO "hands" VALUES('t1-3','t1',3,'finished',1700000000.0,1.79614587123775649069e+09,'{"0": "bot1_0", "1": "bot1_1", "2": "bot1_2", "3": "bot1_3", "4": "bot1_4", "5": "bot1_5"}','{"forced_bets": {"ante": 0, "big_blind": 10, "big_blind_ante": 0, "big_blind_seat": 0, "big_blinds_out_of_position": [], "bring_in": 0, "button_seat": 4, "dead_antes": false, "dead_small_blinds": [], "small_blind": 5, "small_blind_seat": 5, "straddle": 0, "straddle_seat": null}, "settings": {"ante": 0, "big_blind": 10, "bring_in": 0, "clock": {"action_seconds": 20.0, "time_bank_seconds": 60.0}, "game": "texas_holdem", "id": "t1", "jackpot": null, "manual_showdown": false, "max_buy_in": 1000, "min_buy_in": 400, "name": "Table t1", "rake": "none", "seats": 6, "small_blind": 5, "spread": null, "straddle": false, "structure": "no_limit"}, "stacks": {"0": 1000, "1": 789, "2": 1000, "3": 965, "4": 2978, "5": 1000}}','[{"event": "hand_started", "variant": "texas_holdem", "structure": "no_limit", "button_seat": 4, "stacks": [[5, 1000], [0, 1000], [1, 789], [2, 1000], [3, 965], [4, 2978]]}, {"event": "blind_posted", "seat": 5, "kind": "small_blind", "amount": 5, "live": true, "all_in": false}, {"event": "blind_posted", "seat": 0, "kind": "big_blind", "amount": 10, "live": true, "all_in": false}, {"event": "hole_cards_dealt", "seat": 5, "cards": ["Jh", "Qc"]}, {"event": "hole_cards_dealt", "seat": 0, "cards": ["Kc", "3h"]}, {"event": "hole_cards_dealt", "seat": 1, "cards": ["Tc", "4c"]}, {"event": "hole_cards_dealt", "seat": 2, "cards": ["6d", "9h"]}, {"event": "hole_cards_dealt", "seat": 3, "cards": ["9c", "8d"]}, {"event": "hole_cards_dealt", "seat": 4, "cards": ["Js", "5c"]}, {"event": "betting_round_started", "round_index": 0, "street": "preflop", "pot": 15}, {"event": "called", "seat": 1, "amount": 10, "all_in": false}, {"event": "called", "seat": 2, "amount": 10, "all_in": false}, {"event": "called", "seat": 3, "amount": 10, "all_in": false}, {"event": "called", "seat": 4, "amount": 10, "all_in": false}, {"event": "called", "seat": 5, "amount": 5, "all_in": false}, {"event": "checked", "seat": 0}, {"event": "board_dealt", "street": "flop", "cards": ["9d", "3s", "3d"], "board": ["9d", "3s", "3d"]}, {"event": "betting_round_started", "round_index": 1, "street": "flop", "pot": 60}, {"event": "checked", "seat": 5}, {"event": "checked", "seat": 0}, {"event": "checked", "seat": 1}, {"event": "bet_placed", "seat": 2, "to": 229, "added": 229, "all_in": false}, {"event": "called", "seat": 3, "amount": 229, "all_in": false}, {"event": "called", "seat": 4, "amount": 229, "all_in": false}, {"event": "called", "seat": 5, "amount": 229, "all_in": false}, {"event": "called", "seat": 0, "amount": 229, "all_in": false}, {"event": "called", "seat": 1, "amount": 229, "all_in": false}, {"event": "board_dealt", "street": "turn", "cards": ["Kh"], "board": ["9d", "3s", "3d", "Kh"]}, {"event": "betting_round_started", "round_index": 2, "street": "turn", "pot": 1434}, {"event": "checked", "seat": 5}, {"event": "checked", "seat": 0}, {"event": "checked", "seat": 1}, {"event": "checked", "seat": 2}, {"event": "checked", "seat": 3}, {"event": "checked", "seat": 4}, {"event": "board_dealt", "street": "river", "cards": ["Jc"], "board": ["9d", "3s", "3d", "Kh", "Jc"]}, {"event": "betting_round_started", "round_index": 3, "street": "river", "pot": 1434}, {"event": "checked", "seat": 5}, {"event": "checked", "seat": 0}, {"event": "checked", "seat": 1}, {"event": "checked", "seat": 2}, {"event": "checked", "seat": 3}, {"event": "checked", "seat": 4}, {"event": "hand_shown", "seat": 5, "cards": ["Jh", "Qc"], "description": "two pair, jacks and threes"}, {"event": "hand_shown", "seat": 0, "cards": ["Kc", "3h"], "description": "full house, threes full of kings"}, {"event": "hand_shown", "seat": 1, "cards": ["Tc", "4c"], "description": "pair of threes"}, {"event": "hand_shown", "seat": 2, "cards": ["6d", "9h"], "description": "two pair, nines and threes"}, {"event": "hand_shown", "seat": 3, "cards": ["9c", "8d"], "description": "two pair, nines and threes"}, {"event": "hand_shown", "seat": 4, "cards": ["Js", "5c"], "description": "two pair, jacks and threes"}, {"event": "pot_awarded", "pot_index": 0, "seat": 0, "amount": 1434, "share": "whole", "pot_total": 1434, "description": "full house, threes full of kings"}, {"event": "hand_ended", "stacks": [[5, 761], [0, 2195], [1, 550], [2, 761], [3, 726], [4, 2739]], "rake": 0}]','{"put_in": {"5": 239, "0": 239, "1": 239, "2": 239, "3": 239, "4": 239}, "awarded": {"0": 1434}, "final": {"5": 761, "0": 2195, "1": 550, "2": 761, "3": 726, "4": 2739}, "rake": 0, "jackpot": 0}','{"cards": ["2c", "2d", "2h", "2s", "3c", "3d", "3h", "3s", "4c", "4d", "4h", "4s", "5c", "5d", "5h", "5s", "6c", "6d", "6h", "6s", "7c", "7d", "7h", "7s", "8c", "8d", "8h", "8s", "9c", "9d", "9h", "9s", "Tc", "Td", "Th", "Ts", "Jc", "Jd", "Jh", "Js", "Qc", "Qd", "Qh", "Qs", "Kc", "Kd", "Kh", "Ks", "Ac", "Ad", "Ah", "As"], "commitments": {"0": "62cfc5340b463780660cfc44ad5070a19965f88f9f0286d0496753e9f1893ecb", "1": "8552b5198dc7548199914e8219c248e8d404d213e7f8982d642d57ac67bc1860", "2": "aff7fb8612eb287c648ae0090212adcb32a73a6aae3d31ae4ad949bfa3b1b1d5", "3": "8390874abab3bd4c21cafb21034d187bb5d3acf16e6e365b4a558a39f582849b", "4": "d4ae7cb999e0f82ccde27f1fa4a08acf69882e3f5145f16500cb24382e8b92a6", "5": "9c594ac803dfa829dc4f06ae2b9d900e1ea3207a468928879eb2165423599627", "host": "6776ca53215f40ecff348c67ba18818ed110f93c95b36351afbb07061c9ce824"}, "deals": [[0, 5], [1, 0], [2, 1], [3, 2], [4, 3], [5, 4], [6, 5], [7, 0], [8, 1], [9, 2], [10, 3], [11, 4], [12, "board"], [13, "board"], [14, "board"], [15, "board"], [16, "board"]], "forfeited": [], "hand": "t1-3", "room": "room-under-test", "seeds": {"0": "7a45d952d0ddccd12b14dfcf24b083c5cc59b3789daf043995b5ba81637ab27c", "1": "e5f5732c73a42a5cea8e6efbcacd38970ee7a6d214b9073de75063f0b46b2d48", "2": "2f62195cc84b3bab615dd9192e2d39813fa415d0d5549f1f646e143973a6448e", "3": "e4d092e7704f6a30a3bc5a497dc346d4b90e2637874d303122e2e9effdec0597", "4": "8ff9634b5a7c015896c2cf8b4c2451f79094fd3ab2c5255d803a165d10f94e45", "5": "7ddc966d59d6f3f7914075722f24c7f7908e339a9e2a53a5a908d296f82899b1", "host": "0daaf5bc5e777c2da43d02f76386704bacfce8c769d53d5af8b4a2cd318d3735"}, "table": "t1"}');
CREATE TABLE ledger (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at REAL NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('issue', 'balance', 'table', 'pot', 'rake', 'jackpot')),
        destination TEXT NOT NULL CHECK (destination IN ('issue', 'balance', 'table', 'pot', 'rake', 'jackpot')),
        player TEXT,
        table_id TEXT,
        hand_id TEXT,
        amount INTEGER NOT NULL CHECK (amount > 0),
        reason TEXT NOT NULL, pool TEXT,
        CHECK (source <> destination)
    );
INSERT INTO "ledger" VALUES(1,1.79614587116162061691e+09,'issue','balance','bot1_0',NULL,NULL,1000,'new account',NULL);
INSERT INTO "ledger" VALUES(2,1.79614587116535568238e+09,'issue','balance','bot1_1',NULL,NULL,1000,'new account',NULL);
INSERT INTO "ledger" VALUES(3,1.79614587116933822636e+09,'issue','balance','bot1_2',NULL,NULL,1000,'new account',NULL);
INSERT INTO "ledger" VALUES(4,1.79614587117334485047e+09,'issue','balance','bot1_3',NULL,NULL,1000,'new account',NULL);
INSERT INTO "ledger" VALUES(5,1.79614587118135523797e+09,'issue','balance','bot1_4',NULL,NULL,1000,'new account',NULL);
INSERT INTO "ledger" VALUES(6,1.79614587118935632704e+09,'issue','balance','bot1_5',NULL,NULL,1000,'new account',NULL);
INSERT INTO "ledger" VALUES(7,1.79614587120469522472e+09,'balance','table','bot1_0','t1',NULL,1000,'buy-in',NULL);
INSERT INTO "ledger" VALUES(8,1796145871.20568,'balance','table','bot1_1','t1',NULL,1000,'buy-in',NULL);
INSERT INTO "ledger" VALUES(9,1.79614587120975327493e+09,'balance','table','bot1_2','t1',NULL,1000,'buy-in',NULL);
INSERT INTO "ledger" VALUES(10,1.79614587121070814132e+09,'balance','table','bot1_3','t1',NULL,1000,'buy-in',NULL);
INSERT INTO "ledger" VALUES(11,1.79614587121185493474e+09,'balance','table','bot1_4','t1',NULL,1000,'buy-in',NULL);
INSERT INTO "ledger" VALUES(12,1.79614587121335768696e+09,'balance','table','bot1_5','t1',NULL,1000,'buy-in',NULL);
INSERT INTO "ledger" VALUES(13,1.79614587121645832065e+09,'table','pot','bot1_3','t1','t1-1',5,'hand',NULL);
INSERT INTO "ledger" VALUES(14,1.79614587121645832065e+09,'table','pot','bot1_4','t1','t1-1',263,'hand',NULL);
INSERT INTO "ledger" VALUES(15,1.79614587121645832065e+09,'table','pot','bot1_5','t1','t1-1',263,'hand',NULL);
INSERT INTO "ledger" VALUES(16,1.79614587121645832065e+09,'pot','table','bot1_5','t1','t1-1',531,'pot won',NULL);
INSERT INTO "ledger" VALUES(17,1.79614587122015047075e+09,'table','pot','bot1_0','t1','t1-2',1000,'hand',NULL);
INSERT INTO "ledger" VALUES(18,1.79614587122015047075e+09,'table','pot','bot1_1','t1','t1-2',1000,'hand',NULL);
INSERT INTO "ledger" VALUES(19,1.79614587122015047075e+09,'table','pot','bot1_3','t1','t1-2',30,'hand',NULL);
INSERT INTO "ledger" VALUES(20,1.79614587122015047075e+09,'table','pot','bot1_4','t1','t1-2',737,'hand',NULL);
INSERT INTO "ledger" VALUES(21,1.79614587122015047075e+09,'table','pot','bot1_5','t1','t1-2',1000,'hand',NULL);
INSERT INTO "ledger" VALUES(22,1.79614587122015047075e+09,'pot','table','bot1_1','t1','t1-2',789,'pot won',NULL);
INSERT INTO "ledger" VALUES(23,1.79614587122015047075e+09,'pot','table','bot1_4','t1','t1-2',2978,'pot won',NULL);
INSERT INTO "ledger" VALUES(24,1796145871.22093,'issue','balance','bot1_0',NULL,NULL,10000,'refill',NULL);
INSERT INTO "ledger" VALUES(25,1.79614587122124457364e+09,'balance','table','bot1_0','t1',NULL,1000,'top-up',NULL);
INSERT INTO "ledger" VALUES(26,1.79614587122537207601e+09,'issue','balance','bot1_5',NULL,NULL,10000,'refill',NULL);
INSERT INTO "ledger" VALUES(27,1.79614587122934341433e+09,'balance','table','bot1_5','t1',NULL,732,'top-up',NULL);
INSERT INTO "ledger" VALUES(28,1.79614587123775649069e+09,'table','pot','bot1_0','t1','t1-3',239,'hand',NULL);
INSERT INTO "ledger" VALUES(29,1.79614587123775649069e+09,'table','pot','bot1_1','t1','t1-3',239,'hand',NULL);
INSERT INTO "ledger" VALUES(30,1.79614587123775649069e+09,'table','pot','bot1_2','t1','t1-3',239,'hand',NULL);
INSERT INTO "ledger" VALUES(31,1.79614587123775649069e+09,'table','pot','bot1_3','t1','t1-3',239,'hand',NULL);
INSERT INTO "ledger" VALUES(32,1.79614587123775649069e+09,'table','pot','bot1_4','t1','t1-3',239,'hand',NULL);
INSERT INTO "ledger" VALUES(33,1.79614587123775649069e+09,'table','pot','bot1_5','t1','t1-3',239,'hand',NULL);
INSERT INTO "ledger" VALUES(34,1.79614587123775649069e+09,'pot','table','bot1_0','t1','t1-3',1434,'pot won',NULL);
CREATE TABLE notices (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL,
        at REAL NOT NULL,
        text TEXT NOT NULL,
        delivered_at REAL
    );
INSERT INTO "notices" VALUES(1,'bot1_0',1700000000.0,'Hand t0-1 at table t0 was cancelled when the room stopped; every chip you put into it was returned (R-CRASH-1).',NULL);
CREATE TABLE reports (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at REAL NOT NULL,
        reporter TEXT NOT NULL,
        hand_id TEXT NOT NULL,
        reason TEXT NOT NULL,
        history TEXT NOT NULL,
        record TEXT NOT NULL
    );
CREATE TABLE table_stacks (
        table_id TEXT NOT NULL,
        name TEXT NOT NULL,
        amount INTEGER NOT NULL CHECK (amount >= 0),
        PRIMARY KEY (table_id, name)
    );
INSERT INTO "table_stacks" VALUES('t1','bot1_0',2195);
INSERT INTO "table_stacks" VALUES('t1','bot1_1',550);
INSERT INTO "table_stacks" VALUES('t1','bot1_2',761);
INSERT INTO "table_stacks" VALUES('t1','bot1_3',726);
INSERT INTO "table_stacks" VALUES('t1','bot1_4',2739);
INSERT INTO "table_stacks" VALUES('t1','bot1_5',761);
CREATE TABLE tables (
        id TEXT PRIMARY KEY,
        settings TEXT NOT NULL,
        updated_at REAL NOT NULL
    );
INSERT INTO "tables" VALUES('t1','{"ante": 0, "big_blind": 10, "bring_in": 0, "clock": {"action_seconds": 20.0, "time_bank_seconds": 60.0}, "game": "texas_holdem", "id": "t1", "jackpot": null, "manual_showdown": false, "max_buy_in": 1000, "min_buy_in": 400, "name": "Table t1", "rake": "none", "seats": 6, "small_blind": 5, "spread": null, "straddle": false, "structure": "no_limit"}',1.79614587119762015342e+09);
CREATE INDEX ledger_by_hand ON ledger(hand_id);
CREATE INDEX ledger_by_player ON ledger(player);
CREATE INDEX hands_by_status ON hands(status);
CREATE INDEX hands_by_start ON hands(started_at);
CREATE INDEX notices_pending ON notices(name, delivered_at);
DELETE FROM "sqlite_sequence";
INSERT INTO "sqlite_sequence" VALUES('ledger',34);
INSERT INTO "sqlite_sequence" VALUES('notices',1);
COMMIT;
