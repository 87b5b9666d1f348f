/** Models whose id contains every word of the query, case-insensitively ("llama 70b"). */
export function filterModelsById<M extends { id: string }>(
  models: readonly M[],
  query: string,
): M[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  if (words.length === 0) return [...models]
  return models.filter((model) => {
    const id = model.id.toLowerCase()
    return words.every((word) => id.includes(word))
  })
}
