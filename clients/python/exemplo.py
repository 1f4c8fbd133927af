#!/usr/bin/env python3
"""Um bot de exemplo: escolhe_jogada(estado) -> jogada.

An example bot. Run it with its token (from POST /api/bots, or `--registra`
with your player's token):

    python3 exemplo.py --servidor http://localhost:8080 --token=<the bot's token>

It plays every game its account is seated in: challenge it from the lobby,
or enter it in a tournament. Change escolhe_jogada to your own strategy.
"""

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tabuleiro  # noqa: E402


def escolhe_jogada(estado):
    """The move to play, one of estado["legal"].

    Like the "apressado" of the queens assignment: the first legal move.
    estado["board"] is the board, estado["turn"] the seat to move,
    estado["players"] the seats; a "roleta" would be
    random.choice(estado["legal"]).
    """
    return estado["legal"][0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--servidor", default=os.environ.get("TABULEIRO_SERVIDOR", "http://localhost:8080"))
    ap.add_argument("--token", default=os.environ.get("TABULEIRO_TOKEN"), help="the bot's token")
    ap.add_argument("--registra", metavar="NOME", help="register a bot with this name first (needs --jogador)")
    ap.add_argument("--jogador", default=os.environ.get("TABULEIRO_JOGADOR"), help="your player's token, to register a bot")
    ap.add_argument("--partidas", type=int, help="stop after this many games (default: never)")
    ap.add_argument("--roleta", action="store_true", help="random moves instead of the first")
    a = ap.parse_args()
    if a.registra:
        if not a.jogador:
            ap.error("--registra needs --jogador")
        bot_id, a.token = tabuleiro.registra(a.servidor, a.jogador, a.registra)
        print(f"bot {bot_id} registado; guarde o token: {a.token}", flush=True)
    if not a.token:
        ap.error("--token (or TABULEIRO_TOKEN) is required")
    escolhe = (lambda e: random.choice(e["legal"])) if a.roleta else escolhe_jogada
    bot = tabuleiro.Bot(a.servidor, a.token)
    print(f"{bot.nome} ({bot.id}) à espera de partidas", flush=True)
    bot.joga(escolhe, partidas=a.partidas)


if __name__ == "__main__":
    main()
