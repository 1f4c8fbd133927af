# Um projeto de Orbito que falha: levanta uma excecao na sua terceira jogada
# de cada partida (para os testes do Tabuleiro: o aluno ve o traceback e a
# posicao, e o bot desiste dessa partida com bot_error).

from orbito_listas import *  # noqa: F401,F403 - o resto do projeto
import orbito_listas


def escolhe_movimento_auto(t, j, lvl):
    if len(obtem_posicoes_pedra(t, j)) == 2:  # ja jogou duas vezes
        pesos = [len(obtem_posicoes_pedra(t, cria_pedra_neutra())) for _ in range(0)]
        return pesos[0]  # IndexError: a lista esta vazia
    return orbito_listas.escolhe_movimento_auto(t, j, lvl)
