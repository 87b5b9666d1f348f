// First: the app's first calls leave now, before zod, React, the contract and the screens
// evaluate (page-start.ts imports nothing that builds a schema).
import './page-start'
// Second: configures zod before any schema is built.
import './lib/zod-jitless'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App, startApp } from './app/App'
import './styles.css'

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')
// The first bridge calls leave now, while React renders the splash (see startApp).
startApp()
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
