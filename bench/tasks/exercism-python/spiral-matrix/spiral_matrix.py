def spiral_matrix(size):
    pass
