# Um projeto de Orbito que se perde: na sua segunda jogada de cada partida
# nunca mais responde (para os testes do Tabuleiro: o adaptador interrompe-o
# ao fim do limite, e o bot desiste com bot_error em vez de perder por tempo).

from orbito_listas import *  # noqa: F401,F403 - o resto do projeto
import orbito_listas


def escolhe_movimento_auto(t, j, lvl):
    if len(obtem_posicoes_pedra(t, j)) == 1:
        n = 0
        while True:  # um ciclo que nunca acaba
            n += 1
    return orbito_listas.escolhe_movimento_auto(t, j, lvl)
