# Um jogador das rainhas que confere o dicionario que recebe: na posicao
# que o enunciado imprime (o exemplo de faz_jogada) joga a jogada que o
# enunciado imprime, ('T', (1, 7)); noutra qualquer, a do apressado. Para
# os testes do Tabuleiro: o adaptador constroi o jogo com cria_jogo e
# faz_jogada do projeto, e o dicionario tem de ser o do enunciado.

from rainhas_conjuntos import *  # noqa: F401,F403 - o resto do projeto
import rainhas_conjuntos

ENUNCIADO = {'tamanho': 8, 'primeiro': ['D', 'R', 'R', 'T'], 'segundo': ['D', 'D', 'R', 'T'],
             'ocupadas': {(3, 0): 'D', (6, 6): 'R'}}


def jogador_enunciado(jogo, jogador):
    if jogador == 'primeiro' and {k: v for k, v in jogo.items() if k != 'nomes'} == ENUNCIADO:
        return ('T', (1, 7))
    print('nao e a posicao do enunciado:', jogo)
    return rainhas_conjuntos.jogador_apressado(jogo, jogador)
