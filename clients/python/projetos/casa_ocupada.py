# Um projeto de Orbito que se engana: na sua segunda jogada de cada
# partida escolhe uma casa ocupada (para os testes do Tabuleiro: o servidor
# recusa-a, o aluno ve a resposta e a posicao, e o bot desiste com bot_error).

from orbito_dicionario import *  # noqa: F401,F403 - o resto do projeto
import orbito_dicionario


def escolhe_movimento_auto(t, j, lvl):
    if len(obtem_posicoes_pedra(t, j)) == 1:  # a segunda jogada
        return obtem_posicoes_pedra(t, j)[0]  # a sua propria pedra: ocupada
    return orbito_dicionario.escolhe_movimento_auto(t, j, lvl)
